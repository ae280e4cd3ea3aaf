import type { Duration } from '@/lib/contracts/sessions';

/** A non-negative millisecond offset as the spec's {hours, minutes, seconds, nanos}. */
export function msToDuration(ms: number): Duration {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  const nanos = (total % 1000) * 1_000_000;
  return { hours, minutes, seconds, nanos };
}

/**
 * RFC 3339 in UTC with exactly nine fractional digits. Takes nanoseconds since the epoch as a bigint
 * because a double cannot hold them exactly.
 */
export function formatNanoTimestamp(epochNanos: bigint): string {
  const NS_PER_MS = 1_000_000n;
  let ms = epochNanos / NS_PER_MS;
  let rem = epochNanos % NS_PER_MS;
  if (rem < 0n) {
    rem += NS_PER_MS;
    ms -= 1n;
  }
  const iso = new Date(Number(ms)).toISOString(); // 2026-02-01T10:00:01.250Z
  const base = iso.slice(0, 19);
  const fraction = (BigInt(iso.slice(20, 23)) * NS_PER_MS + rem).toString().padStart(9, '0');
  return `${base}.${fraction}Z`;
}

/** Wall-clock time of a point `offsetMs` into a recording that started at `startEpochMicros`. */
export function wallClock(startEpochMicros: bigint, offsetMs: number): string {
  return formatNanoTimestamp(startEpochMicros * 1000n + BigInt(Math.round(offsetMs)) * 1_000_000n);
}
