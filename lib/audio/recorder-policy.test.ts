import { describe, expect, it } from 'vitest';
import { BACKOFF_MS, LOAD_BACKOFF_MS, reconnectDelayMs } from './recorder-policy';

describe('reconnectDelayMs', () => {
  it('backs off over failed handshakes and stays at the last step', () => {
    expect([0, 1, 2, 3, 4, 9].map((f) => reconnectDelayMs(f, 0))).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000]);
  });

  it('waits seconds, not 250 ms, after a refusal for load, and longer after each one until audio is acknowledged', () => {
    // A 4429 comes after the handshake opened, so the failure count is 0 every time.
    const delays = [1, 2, 3, 4, 5].map((refusals) => reconnectDelayMs(0, refusals));
    expect(delays).toEqual([2_000, 4_000, 8_000, 15_000, 15_000]);
    expect(delays[0]).toBeGreaterThan(BACKOFF_MS[0]!);
  });

  it('never waits less than the failed-handshake back-off', () => {
    expect(reconnectDelayMs(4, 1)).toBe(Math.max(LOAD_BACKOFF_MS[0]!, BACKOFF_MS[4]!));
  });
});
