import { describe, expect, it } from 'vitest';
import { contiguousFrom, FrameBuffer, type Chunk } from './frame-buffer';

const frame = (start: number, n = 1600) => Int16Array.from({ length: n }, (_, i) => (start + i) % 30000);
const chunk = (start: number, n = 1600): Chunk => ({ start, samples: frame(start, n), at: 1_700_000_000_000 + start / 16 });
const concat = (parts: Int16Array[]) => Int16Array.from(parts.flatMap((p) => Array.from(p)));

/** A page that captured `frames` frames, of which the server ACKed `ackedMs` on one connection, then went away. */
function pageThatWentAway(frames: number, ackedMs: number) {
  const b = new FrameBuffer({ probe: true });
  b.connectionOpened();
  for (let i = 0; i < frames; i++) b.push(frame(i * 1600), 1_700_000_000_000 + i * 100);
  b.takeUnsent(); // the 1 ms probe
  b.ack(1, 5_001); // the session already held 5 s before this page
  b.takeUnsent();
  b.ack(ackedMs, 5_000 + ackedMs);
  const kept: Chunk[] = [];
  for (let i = 0; i < frames; i++) if ((i + 1) * 1600 > b.position.ackedSamples) kept.push(chunk(i * 1600));
  return { position: b.position, kept };
}

describe('FrameBuffer.restore (a reload resends from the last ACK)', () => {
  it('resends exactly the unACKed audio, then new audio, on the same session timeline', () => {
    const { position, kept } = pageThatWentAway(10, 420); // 420 ms of 1000 ms stored
    expect(position).toEqual({ ackedSamples: 420 * 16, totalSamples: 16_000, sessionBaseMs: 5_000 });
    const b = FrameBuffer.restore({ ackedSamples: position.ackedSamples, sessionBaseMs: position.sessionBaseMs, chunks: kept }, { probe: true });
    expect(b.unackedMs).toBe(580);
    b.push(frame(16_000)); // new audio after the reload
    b.connectionOpened();
    const probe = b.takeUnsent();
    expect(probe.reduce((n, f) => n + f.length, 0)).toBe(16);
    // The server holds 5 s + 420 ms + this probe: nothing was stored beyond the last ACK.
    expect(b.ack(1, 5_421)).toBe(true);
    const rest = b.takeUnsent();
    expect(concat([...probe, ...rest])).toEqual(concat([frame(0, 16_000).subarray(420 * 16), frame(16_000)]));
    expect(b.ack(680, 5_420 + 680)).toBe(true);
    expect(b.allAcked).toBe(true);
    expect(b.totalMs).toBe(1_100);
  });

  it('skips audio the server stored whose ACK never reached the old page', () => {
    const { position, kept } = pageThatWentAway(10, 300);
    const b = FrameBuffer.restore({ ackedSamples: position.ackedSamples, sessionBaseMs: position.sessionBaseMs, chunks: kept }, { probe: true });
    b.connectionOpened();
    b.takeUnsent();
    // The old page's connection had stored 700 ms before it went away, only 300 of them ACKed.
    expect(b.ack(1, 5_701)).toBe(true);
    expect(b.ackedMs).toBe(700);
    const rest = b.takeUnsent();
    expect(concat(rest)).toEqual(frame(0, 16_000).subarray(700 * 16));
  });

  it('starts its START_TIME at the first unACKed sample, from the kept capture time', () => {
    const { position, kept } = pageThatWentAway(10, 250);
    const b = FrameBuffer.restore({ ackedSamples: position.ackedSamples, sessionBaseMs: position.sessionBaseMs, chunks: kept });
    b.connectionOpened();
    expect(b.connectionStartTime()).toBe(1_700_000_000_000 + 250);
  });
});

describe('contiguousFrom', () => {
  it('keeps chunks from the ACK point in order and drops what follows a gap', () => {
    const r = contiguousFrom([chunk(3200), chunk(0), chunk(1600), chunk(8000)], 800);
    expect(r.chunks.map((c) => c.start)).toEqual([0, 1600, 3200]);
    expect(r).toMatchObject({ acked: 800, total: 4800, droppedSamples: 1600 });
  });

  it('treats a first chunk after the ACK point as the point (pruning ran ahead of the saved ACK)', () => {
    const r = contiguousFrom([chunk(3200), chunk(4800)], 1000);
    expect(r).toMatchObject({ acked: 3200, total: 6400, droppedSamples: 0 });
  });

  it('ignores chunks wholly ACKed and duplicates', () => {
    const r = contiguousFrom([chunk(0), chunk(1600), chunk(1600)], 1600);
    expect(r.chunks.map((c) => c.start)).toEqual([1600]);
    expect(r.total).toBe(3200);
  });
});
