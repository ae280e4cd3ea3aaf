import { afterEach, describe, expect, it, vi } from 'vitest';
import { AudioBatcher, BATCH_BYTES, BATCH_IDLE_MS } from './audio-batch';

const frame = (n: number, v = 1) => Buffer.alloc(n, v);

describe('AudioBatcher', () => {
  afterEach(() => vi.useRealTimers());

  it('hands over half a second at once, in order, with nothing lost', () => {
    const out: Buffer[] = [];
    const b = new AudioBatcher((p) => out.push(p), () => {});
    for (let i = 0; i < 12; i++) b.push(frame(3200, i));
    expect(out.map((p) => p.length)).toEqual([BATCH_BYTES, BATCH_BYTES]);
    b.flush();
    expect(out.map((p) => p.length)).toEqual([BATCH_BYTES, BATCH_BYTES, 2 * 3200]);
    expect(Buffer.concat(out)).toEqual(Buffer.concat(Array.from({ length: 12 }, (_, i) => frame(3200, i))));
  });

  it('hands over a shorter batch once no audio has come for a while, and drops what is discarded', () => {
    vi.useFakeTimers();
    const out: Buffer[] = [];
    const b = new AudioBatcher((p) => out.push(p), () => {});
    b.push(frame(3200));
    vi.advanceTimersByTime(BATCH_IDLE_MS - 50);
    b.push(frame(3200));
    vi.advanceTimersByTime(BATCH_IDLE_MS - 50);
    expect(out).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(out.map((p) => p.length)).toEqual([6400]);
    b.push(frame(3200));
    b.discard();
    vi.advanceTimersByTime(2 * BATCH_IDLE_MS);
    expect(out).toHaveLength(1);
  });

  it('reports what the sink throws from the idle timer, and throws to a caller that flushes', () => {
    vi.useFakeTimers();
    const errors: Error[] = [];
    const b = new AudioBatcher(() => {
      throw new Error('detector failed');
    }, (e) => errors.push(e));
    b.push(frame(3200));
    vi.advanceTimersByTime(BATCH_IDLE_MS);
    expect(errors.map((e) => e.message)).toEqual(['detector failed']);
    b.push(frame(3200));
    expect(() => b.flush()).toThrow('detector failed');
  });
});
