/** Share of each scheduled delay that is randomised, so deliveries failing together do not retry in lockstep. */
export const JITTER_RATIO = 0.2;

/**
 * Delay before the next attempt, or null when the schedule is exhausted.
 * `failedInSequence` counts the attempts of the current sequence that failed (1 after the first failure);
 * the schedule lists the pause after each of them, so a schedule of n entries allows n + 1 attempts.
 * The delay is the scheduled value ±JITTER_RATIO, never negative.
 */
export function retryDelayMs(schedule: readonly number[], failedInSequence: number, random: () => number = Math.random): number | null {
  if (failedInSequence < 1 || failedInSequence > schedule.length) return null;
  const base = schedule[failedInSequence - 1]! * 1000;
  const factor = 1 + JITTER_RATIO * (2 * random() - 1);
  return Math.max(0, Math.round(base * factor));
}

/** HTTP statuses worth retrying: the receiver may succeed later. Other non-2xx answers are final. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
