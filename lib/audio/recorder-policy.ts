/** The recorder's timings and limits: how it keeps a connection alive, how it gets one back, what it keeps. */

export const KEEP_ALIVE_MS = 5_000;
/** Reconnect delays after a dropped or refused connection; the last step repeats, so attempts never stop. */
export const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000];
/**
 * After a refusal for load (close 4429: the provider's or partner's stream cap, or audio sent too far ahead),
 * an immediate retry meets the same limit. Such refusals come after the handshake opened, which resets the
 * failure count, so they are counted apart and forgiven only once the server acknowledges audio again.
 */
export const LOAD_BACKOFF_MS = [2_000, 4_000, 8_000, 15_000];

/**
 * How long to wait before the next connection attempt: the step for this many failures, less up to half of
 * it at random (`random` in [0, 1)), so the recorders of a clinic whose Wi-Fi came back do not all retry in
 * the same instant. Never more than the step itself, so a dropped connection is retried within 4 s.
 */
export function reconnectDelayMs(failures: number, loadRefusals: number, random: () => number = Math.random): number {
  const pick = (steps: number[], n: number) => steps[Math.min(Math.max(0, n), steps.length - 1)]!;
  const step = loadRefusals > 0 ? Math.max(pick(LOAD_BACKOFF_MS, loadRefusals - 1), pick(BACKOFF_MS, failures)) : pick(BACKOFF_MS, failures);
  return Math.round(step * (1 - random() / 2));
}
/** Failed connection attempts in a row after which the session itself is checked over REST. */
export const CHECK_AFTER_FAILURES = 3;
/**
 * A handshake still pending after this is given up and tried again: one begun while the network was down
 * can hang until the browser's own timeout, long after the network is back.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
/** A token request still pending after this counts as a failed attempt (a request to a dead host can hang). */
export const TOKEN_TIMEOUT_MS = 10_000;
/**
 * An open connection that carried audio and heard nothing from the server for this long is treated as dead
 * and replaced: a half-open TCP connection (laptop asleep, Wi-Fi gone without an `offline` event) would
 * otherwise swallow audio until the operating system gives up on it, minutes later. The server ACKs every
 * append it stores and repeats its last ACK every 2 s while audio waits to be stored, so only a dead
 * connection or a server stalled this long is silent. Generous on purpose: giving up a live connection to a
 * slow server (seen after a restart on a loaded machine: ACKs 20 s late) makes the next connection wait for
 * the old one's audio to be stored and resends what was already sent, so it only slows the catch-up down.
 */
export const STALL_MS = 30_000;
/**
 * Unsent audio kept in IndexedDB per visit (30 min of 16 kHz PCM16 = 57.6 MB). Beyond it the newest audio is
 * still kept in memory and sent, but would not survive a reload; the recorder says so.
 */
export const UNSENT_STORE_LIMIT_MS = 30 * 60_000;
export const ENDED = ['running', 'aborted', 'completed', 'skipped', 'failed'];

export function defaultWsUrl(): string {
  return `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/ambient`;
}
