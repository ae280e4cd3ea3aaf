import { describe, expect, it } from 'vitest';
import { BACKOFF_MS, LOAD_BACKOFF_MS, reconnectDelayMs } from './recorder-policy';

const top = () => 0; // no jitter: the full step
const bottom = () => 0.999_999; // the most jitter takes off

describe('reconnectDelayMs', () => {
  it('backs off over failed handshakes and stays at the last step, so attempts never stop', () => {
    expect([0, 1, 2, 3, 4, 9, 1_000].map((f) => reconnectDelayMs(f, 0, top))).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000, 4_000]);
  });

  it('jitters each delay down to half its step and never above it', () => {
    for (const f of [0, 2, 4, 50]) {
      const step = BACKOFF_MS[Math.min(f, BACKOFF_MS.length - 1)]!;
      expect(reconnectDelayMs(f, 0, top)).toBe(step);
      expect(reconnectDelayMs(f, 0, bottom)).toBe(Math.round(step / 2));
      const spread = new Set(Array.from({ length: 50 }, () => reconnectDelayMs(f, 0)));
      for (const d of spread) expect(d).toBeGreaterThanOrEqual(step / 2), expect(d).toBeLessThanOrEqual(step);
      expect(spread.size).toBeGreaterThan(1);
    }
  });

  it('waits seconds, not 250 ms, after a refusal for load, and longer after each one until audio is acknowledged', () => {
    // A 4429 comes after the handshake opened, so the failure count is 0 every time.
    const delays = [1, 2, 3, 4, 5].map((refusals) => reconnectDelayMs(0, refusals, top));
    expect(delays).toEqual([2_000, 4_000, 8_000, 15_000, 15_000]);
    // Even with the most jitter, a refusal waits longer than any dropped connection's first retries.
    expect(reconnectDelayMs(0, 1, bottom)).toBeGreaterThan(BACKOFF_MS[1]!);
  });

  it('never waits less than the failed-handshake back-off', () => {
    expect(reconnectDelayMs(4, 1, top)).toBe(Math.max(LOAD_BACKOFF_MS[0]!, BACKOFF_MS[4]!));
  });
});
