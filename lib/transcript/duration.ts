import type { Duration } from '@/lib/contracts/sessions';

/** A transcript offset (the contract's Duration) in milliseconds. */
export const durationMs = (d: Duration): number => d.hours * 3_600_000 + d.minutes * 60_000 + d.seconds * 1000 + Math.floor(d.nanos / 1e6);
