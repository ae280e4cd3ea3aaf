import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { FrameBuffer, type Chunk } from './frame-buffer';
import { CaptureWriter, discardKept, findKept, keptMs } from './unsent-store';

const frame = (start: number, n = 1600) => Int16Array.from({ length: n }, (_, i) => (start + i) % 30000);
const chunk = (start: number, n = 1600): Chunk => ({ start, samples: frame(start, n), at: 1_700_000_000_000 + start / 16 });
let n = 0;
const newSession = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

describe('unsent audio kept in IndexedDB', () => {
  it('keeps unACKed frames, drops ACKed ones, and gives back what a reload must resend', async () => {
    const session = newSession();
    const w = new CaptureWriter(session, 'cap-1');
    for (let i = 0; i < 10; i++) w.append(chunk(i * 1600));
    await w.progress({ ackedSamples: 4_000, totalSamples: 16_000, sessionBaseMs: 2_000 });
    const found = await findKept(session);
    expect(found!.meta).toMatchObject({ sessionId: session, captureId: 'cap-1', ackedSamples: 4_000, sessionBaseMs: 2_000, ending: false });
    // The frame holding the ACK point stays (part of it is unACKed); the two before it are gone.
    expect(found!.kept.chunks.map((c) => c.start)).toEqual([3200, 4800, 6400, 8000, 9600, 11200, 12800, 14400]);
    expect(found!.kept.chunks[0]!.samples).toEqual(frame(3200));
    expect(await keptMs(session)).toBe(800);
    // The restored buffer resends from the ACK point.
    const b = FrameBuffer.restore(found!.kept);
    expect(b.unackedMs).toBe(750);
    b.connectionOpened();
    expect(Array.from(b.takeUnsent()[0]!.subarray(0, 3))).toEqual(Array.from(frame(4000, 3)));
  });

  it('continues the same capture after a reload and forgets it once everything is ACKed', async () => {
    const session = newSession();
    const w = new CaptureWriter(session, 'cap-a');
    w.append(chunk(0));
    w.append(chunk(1600));
    await w.flushed();
    const found = (await findKept(session))!;
    const again = new CaptureWriter(session, found.meta.captureId, found.meta);
    again.append(chunk(3200));
    await again.progress({ ackedSamples: 4800, totalSamples: 4800, sessionBaseMs: 0 });
    expect(await findKept(session)).toBeNull();
  });

  it('keeps where capture started again, so a second reload still sends each part on a connection of its own', async () => {
    const session = newSession();
    const b = FrameBuffer.restore({ ackedSamples: 0, sessionBaseMs: 0, chunks: [chunk(0)] });
    const w = new CaptureWriter(session, 'cap-p');
    w.append(chunk(0));
    b.markPartStart(); // "Continue recording" while the kept audio is unsent
    await w.progress(b.position);
    w.append(chunk(1600));
    await w.flushed();
    const found = (await findKept(session))!;
    expect(found.kept.partStarts).toEqual([1600]);
    const again = FrameBuffer.restore(found.kept);
    again.connectionOpened();
    expect(again.takeUnsent().map((f) => f.length)).toEqual([1600]);
    again.ack(100);
    expect(again.partComplete).toBe(true);
  });

  it('keeps why capture started again with each part start, so the reloaded page sends it with that part', async () => {
    const session = newSession();
    const b = new FrameBuffer({ probe: true });
    const w = new CaptureWriter(session, 'cap-r');
    b.push(frame(0));
    w.append(chunk(0));
    b.markPartStart('PAUSED'); // Resume after a pause of 1 s or more
    await w.progress(b.position);
    b.push(frame(1600));
    w.append(chunk(1600));
    await w.flushed();
    const found = (await findKept(session))!;
    expect(found.kept.partReasons).toEqual([{ sample: 1600, reason: 'PAUSED' }]);
    const again = FrameBuffer.restore(found.kept, { probe: true });
    again.connectionOpened();
    expect(again.connectionStartReason).toBeNull(); // the first part's audio, resent
    again.takeUnsent();
    again.ack(1, 1);
    again.takeUnsent();
    again.ack(100, 100);
    expect(again.partComplete).toBe(true);
    again.connectionClosed();
    again.connectionOpened();
    expect(again.connectionStartReason).toBe('PAUSED');
  });

  it('keeps a queued End, so a reload sends EOF even with no audio left', async () => {
    const session = newSession();
    const w = new CaptureWriter(session, 'cap-e');
    w.append(chunk(0));
    await w.setEnding();
    await w.progress({ ackedSamples: 1600, totalSamples: 1600, sessionBaseMs: 0 });
    const found = await findKept(session);
    expect(found!.meta.ending).toBe(true);
    expect(found!.kept.chunks).toEqual([]);
    await w.clear();
    expect(await findKept(session)).toBeNull();
  });

  it('stops keeping audio beyond its limit until the server has ACKed past the gap', async () => {
    const session = newSession();
    const w = new CaptureWriter(session, 'cap-l', undefined, { limitMs: 250 }); // 4000 samples
    w.append(chunk(0));
    w.append(chunk(1600));
    expect(w.overLimit).toBe(false);
    w.append(chunk(3200)); // would hold 300 ms
    expect(w.overLimit).toBe(true);
    await w.progress({ ackedSamples: 1600, totalSamples: 4800, sessionBaseMs: 0 });
    w.append(chunk(4800)); // under the limit again, but after a gap that is not ACKed yet
    expect(w.overLimit).toBe(true);
    await w.progress({ ackedSamples: 6400, totalSamples: 6400, sessionBaseMs: 0 });
    w.append(chunk(6400));
    expect(w.overLimit).toBe(false);
    await w.flushed();
    expect((await findKept(session))!.kept.chunks.map((c) => c.start)).toEqual([6400]);
  });

  it('discards a session\'s kept audio and no other session\'s', async () => {
    const a = newSession();
    const b = newSession();
    const wa = new CaptureWriter(a, 'x');
    const wb = new CaptureWriter(b, 'y');
    wa.append(chunk(0));
    wb.append(chunk(0));
    await Promise.all([wa.flushed(), wb.flushed()]);
    await discardKept(a);
    expect(await findKept(a)).toBeNull();
    expect((await findKept(b))!.kept.chunks).toHaveLength(1);
  });
});
