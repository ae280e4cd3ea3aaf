import { describe, expect, it } from 'vitest';
import { isRetryableStatus, JITTER_RATIO, retryDelayMs } from './backoff';

describe('retry schedule', () => {
  const schedule = [10, 30, 60, 300];

  it('follows the schedule after each failure and stops after the last entry', () => {
    const mid = () => 0.5; // no jitter
    expect(retryDelayMs(schedule, 1, mid)).toBe(10_000);
    expect(retryDelayMs(schedule, 2, mid)).toBe(30_000);
    expect(retryDelayMs(schedule, 4, mid)).toBe(300_000);
    expect(retryDelayMs(schedule, 5, mid)).toBeNull();
    expect(retryDelayMs(schedule, 0, mid)).toBeNull();
    expect(retryDelayMs([], 1, mid)).toBeNull();
  });

  it('keeps the jitter within ±20% of the scheduled delay at the extremes of the random source', () => {
    expect(JITTER_RATIO).toBe(0.2);
    expect(retryDelayMs(schedule, 2, () => 0)).toBe(24_000);
    expect(retryDelayMs(schedule, 2, () => 0.999999)).toBeLessThanOrEqual(36_000);
    expect(retryDelayMs(schedule, 2, () => 0.999999)).toBeGreaterThan(35_999);
  });

  it('spreads delays over the whole band with a real random source', () => {
    const samples = Array.from({ length: 2000 }, () => retryDelayMs([100], 1)!);
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(80_000);
    expect(Math.max(...samples)).toBeLessThanOrEqual(120_000);
    expect(Math.min(...samples)).toBeLessThan(85_000);
    expect(Math.max(...samples)).toBeGreaterThan(115_000);
  });

  it('retries 408, 429 and 5xx only', () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 410, 422].some(isRetryableStatus)).toBe(false);
  });
});
