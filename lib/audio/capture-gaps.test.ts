import { describe, expect, it } from 'vitest';
import { CaptureGaps } from './capture-gaps';

/** 100 ms frames (1600 samples) delivered at the given wall times. */
function feed(g: CaptureGaps, times: number[]): Array<number | null> {
  return times.map((t) => g.frame(1600, t));
}
const steady = (from: number, to: number) => Array.from({ length: Math.round((to - from) / 100) }, (_, i) => from + i * 100);

describe('sound the browser never delivered', () => {
  it('is nothing while frames keep pace with the clock, with jitter and a start-up delay', () => {
    const g = new CaptureGaps();
    const times = [400, ...steady(500, 60_000).map((t, i) => t + (i % 3) * 30)];
    expect(feed(g, times).filter((x) => x !== null)).toEqual([]);
    expect(g.lostMs).toBe(0);
  });

  it('is counted once when 2 s of frames never arrive, and only once the frames before it have left the window', () => {
    const g = new CaptureGaps();
    const reports = feed(g, [...steady(0, 10_000), ...steady(12_000, 30_000)]);
    const at = reports.findIndex((x) => x !== null);
    expect(reports.filter((x) => x !== null)).toHaveLength(1);
    expect(g.lostMs).toBeCloseTo(2_000, -1);
    // Reported once the lag has stayed risen for a whole window after the frames before the loss left it.
    expect([...steady(0, 10_000), ...steady(12_000, 30_000)][at]).toBeGreaterThanOrEqual(15_900);
  });

  it('is nothing when a stalled page delivers the same frames late, in a burst', () => {
    const g = new CaptureGaps();
    // 4 s with no frame, then all 40 of them at once.
    const times = [...steady(0, 10_000), ...Array.from({ length: 40 }, () => 14_000), ...steady(14_100, 30_000)];
    expect(feed(g, times).filter((x) => x !== null)).toEqual([]);
  });

  it('ignores a slow clock drift (0.2 %), and starts afresh after a pause', () => {
    const g = new CaptureGaps();
    expect(feed(g, steady(0, 600_000).map((t) => t * 1.002)).filter((x) => x !== null)).toEqual([]);
    g.restart();
    // Resumed an hour later: the pause is no gap.
    expect(feed(g, steady(3_600_000, 3_610_000)).filter((x) => x !== null)).toEqual([]);
    expect(g.lostMs).toBe(0);
  });
});
