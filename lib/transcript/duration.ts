import type { Duration } from '@/lib/contracts/sessions';

/** A transcript offset (the contract's Duration) in milliseconds. */
export const durationMs = (d: Duration): number => d.hours * 3_600_000 + d.minutes * 60_000 + d.seconds * 1000 + Math.floor(d.nanos / 1e6);

/** m:ss (or h:mm:ss) from milliseconds, as the app shows transcript offsets (and the review names them). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}
