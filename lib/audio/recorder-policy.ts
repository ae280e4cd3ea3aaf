/** The recorder's timings: how it keeps a connection alive and how it gets one back. */

export const KEEP_ALIVE_MS = 5_000;
/** How far ahead of real time a resent backlog may run (the server allows 30 s by default). */
export const RESEND_AHEAD_MS = 15_000;
export const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000];
/**
 * After a refusal for load (close 4429: the provider's or partner's stream cap, or audio sent too far ahead),
 * an immediate retry meets the same limit. Such refusals come after the handshake opened, which resets the
 * failure count, so they are counted apart and forgiven only once the server acknowledges audio again.
 */
export const LOAD_BACKOFF_MS = [2_000, 4_000, 8_000, 15_000];

/** How long to wait before the next connection attempt. */
export function reconnectDelayMs(failures: number, loadRefusals: number): number {
  const pick = (steps: number[], n: number) => steps[Math.min(n, steps.length - 1)]!;
  return loadRefusals > 0 ? Math.max(pick(LOAD_BACKOFF_MS, loadRefusals - 1), pick(BACKOFF_MS, failures)) : pick(BACKOFF_MS, failures);
}
/** Failed connection attempts in a row after which the session itself is checked over REST. */
export const CHECK_AFTER_FAILURES = 3;
/**
 * A handshake still pending after this is given up and tried again: one begun while the network was down
 * can hang until the browser's own timeout, long after the network is back.
 */
export const CONNECT_TIMEOUT_MS = 15_000;
export const ENDED = ['running', 'aborted', 'completed', 'skipped', 'failed'];

export function defaultWsUrl(): string {
  return `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/ambient`;
}
