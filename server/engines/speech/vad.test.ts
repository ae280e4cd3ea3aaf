import { describe, expect, it } from 'vitest';
import { VadSegmenter, type VadEvent } from './vad.js';

function signal(parts: [kind: 'tone' | 'silence' | 'noise', ms: number][]): Int16Array {
  const out: number[] = [];
  let seed = 1;
  for (const [kind, ms] of parts) {
    const n = (ms * 16000) / 1000;
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = ((seed / 0x7fffffff) * 2 - 1) * 30;
      out.push(kind === 'tone' ? Math.round(6000 * Math.sin((2 * Math.PI * 200 * i) / 16000) + noise) : kind === 'noise' ? Math.round(noise) : 0);
    }
  }
  return Int16Array.from(out);
}

function run(v: VadSegmenter, s: Int16Array, chunk = 1600): VadEvent[] {
  const ev: VadEvent[] = [];
  for (let o = 0; o < s.length; o += chunk) ev.push(...v.push(s.subarray(o, o + chunk)));
  return [...ev, ...v.flush()];
}

describe('VadSegmenter', () => {
  it('cuts a segment at each pause and none in silence or low noise', () => {
    const s = signal([['noise', 1000], ['tone', 1500], ['noise', 1000], ['tone', 800], ['noise', 1200]]);
    const ev = run(new VadSegmenter({ pauseMs: 600, prerollMs: 200 }), s);
    const starts = ev.filter((e) => e.type === 'start').map((e) => (e as { startSample: number }).startSample / 16);
    const ends = ev.filter((e) => e.type === 'end').map((e) => (e as { endSample: number }).endSample / 16);
    expect(starts).toHaveLength(2);
    expect(ends).toHaveLength(2);
    // Onsets at 1000 ms and 3500 ms, with 200 ms pre-roll.
    expect(Math.abs(starts[0]! - 800)).toBeLessThanOrEqual(40);
    expect(Math.abs(starts[1]! - 3300)).toBeLessThanOrEqual(40);
    // Each ends after the pause that closes it.
    expect(Math.abs(ends[0]! - 3100)).toBeLessThanOrEqual(40);
    expect(Math.abs(ends[1]! - 4900)).toBeLessThanOrEqual(40);
  });

  it('passes on every sample of a segment exactly once, whatever the write size', () => {
    const s = signal([['silence', 500], ['tone', 1000], ['silence', 1000]]);
    for (const chunk of [1, 333, 1600, 48000]) {
      const ev = run(new VadSegmenter({ prerollMs: 200, pauseMs: 500 }), s, chunk);
      const start = (ev.find((e) => e.type === 'start') as { startSample: number }).startSample;
      const end = (ev.find((e) => e.type === 'end') as { endSample: number }).endSample;
      const audio = ev.filter((e) => e.type === 'audio').reduce((a, e) => a + (e as { samples: Int16Array }).samples.length, 0);
      expect(audio).toBe(end - start);
    }
  });

  it('closes an overlong segment without a pause', () => {
    const ev = run(new VadSegmenter({ maxSegmentMs: 2000 }), signal([['tone', 5000]]));
    expect(ev.filter((e) => e.type === 'end').length).toBeGreaterThanOrEqual(2);
  });

  it('ends an open segment on flush', () => {
    const v = new VadSegmenter();
    v.push(signal([['silence', 300], ['tone', 500]]));
    expect(v.speaking).toBe(true);
    expect(v.flush().some((e) => e.type === 'end')).toBe(true);
  });
});
