import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FrameBuffer } from './frame-buffer';

/** Samples whose values are their timeline positions (less 32768), so a recording shows which audio it holds. */
const frame = (start: number, n = 1600) => Int16Array.from({ length: n }, (_, i) => start + i - 32768);
const positions = (parts: Int16Array[]) => parts.flatMap((p) => Array.from(p, (v) => v + 32768));
const T0 = 1_700_000_000_000;

/** A kept capture: 200 ms sent to the server, then capture starts again 12 s after it stopped. */
function restarted(b: FrameBuffer) {
  b.push(frame(0), T0);
  b.push(frame(1600), T0 + 100);
  b.markPartStart();
  b.push(frame(3200), T0 + 12_200);
  b.push(frame(4800), T0 + 12_300);
}

describe('FrameBuffer recording parts (capture started again after a stop)', () => {
  it('sends audio only up to the part start, then the next connection starts there, dated by its first sample', () => {
    const b = new FrameBuffer({ probe: true });
    b.connectionOpened();
    restarted(b);
    expect(b.connectionStartTime()).toBe(T0);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(0, 16)])); // the probe
    expect(b.ack(1, 1)).toBe(true);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(16, 3184)]));
    // Nothing of the restarted capture on this connection, and no EOF either: this connection is not done.
    expect(b.takeUnsent()).toEqual([]);
    expect(b.allSent).toBe(false);
    expect(b.ack(150, 150)).toBe(true);
    expect(b.partComplete).toBe(false); // the part is not stored yet: closing now could lose it
    expect(b.ack(200, 200)).toBe(true);
    expect(b.partComplete).toBe(true);
    b.connectionClosed();
    expect(b.partComplete).toBe(false);
    b.connectionOpened();
    expect(b.connectionStartTime()).toBe(T0 + 12_200);
    expect(b.partComplete).toBe(false);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(3200, 16)]));
    expect(b.ack(1, 201)).toBe(true);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(3216, 3184)]));
    expect(b.allSent).toBe(true);
    expect(b.ack(200, 400)).toBe(true);
    expect(b.allAcked).toBe(true);
    expect(b.partComplete).toBe(false);
  });

  it('waits for the first sample after the part start before asking for the next connection', () => {
    const b = new FrameBuffer();
    b.connectionOpened();
    b.push(frame(0), T0);
    b.markPartStart();
    b.takeUnsent();
    b.ack(100);
    expect(b.partComplete).toBe(false); // the next connection could not be dated yet
    b.push(frame(1600), T0 + 9_000);
    expect(b.takeUnsent()).toEqual([]);
    expect(b.partComplete).toBe(true);
    b.connectionClosed();
    b.connectionOpened();
    expect(b.connectionStartTime()).toBe(T0 + 9_000);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(1600)]));
  });

  it('marks nothing before the first sample, and one part start for two restarts with no audio between', () => {
    const b = new FrameBuffer();
    b.markPartStart();
    b.push(frame(0), T0);
    b.markPartStart();
    b.markPartStart();
    b.push(frame(1600), T0 + 5_000);
    expect(b.position.partStarts).toEqual([1600]);
    b.connectionOpened();
    expect(positions(b.takeUnsent())).toEqual(positions([frame(0)]));
  });

  it('resends from the last ACK across an outage, still only up to the part start, and starts the next part afresh', () => {
    const b = new FrameBuffer({ probe: true });
    b.connectionOpened();
    restarted(b);
    b.takeUnsent();
    b.ack(1, 1);
    b.takeUnsent();
    b.ack(50, 50);
    b.connectionClosed(); // the network drops with 150 ms of the first part unACKed
    b.connectionOpened();
    expect(b.connectionStartTime()).toBe(T0 + 50);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(800, 16)]));
    expect(b.ack(1, 51)).toBe(true);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(816, 784), frame(1600)]));
    expect(b.ack(150, 200)).toBe(true);
    expect(b.partComplete).toBe(true);
    // The network drops again before the recorder moved on: the next connection starts at the part start anyway.
    b.connectionClosed();
    b.connectionOpened();
    expect(b.partComplete).toBe(false);
    expect(b.connectionStartTime()).toBe(T0 + 12_200);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(3200, 16)]));
    b.ack(1, 201);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(3216, 3184)]));
    b.ack(200, 400);
    expect(b.allAcked).toBe(true);
  });

  it('moves on when the old connection stored the whole part but its ACKs were lost (the probe tells)', () => {
    const b = new FrameBuffer({ probe: true });
    b.connectionOpened();
    restarted(b);
    b.takeUnsent();
    b.ack(1, 1);
    b.takeUnsent(); // the first part sent whole; its ACKs lost with the connection
    b.connectionClosed();
    b.connectionOpened();
    expect(positions(b.takeUnsent())).toEqual(positions([frame(16, 16)])); // the probe repeats 1 ms
    expect(b.ack(1, 201)).toBe(true); // the server had all 200 ms before this recording
    expect(b.ackedMs).toBe(200);
    expect(b.takeUnsent()).toEqual([]);
    expect(b.partComplete).toBe(true);
    b.connectionClosed();
    b.connectionOpened();
    expect(b.connectionStartTime()).toBe(T0 + 12_200);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(3200, 16)]));
  });

  it('counts a part ending in a partial millisecond as stored once the rest of it is', () => {
    const b = new FrameBuffer();
    b.connectionOpened();
    b.push(frame(0, 1608), T0); // 100.5 ms
    b.markPartStart();
    b.push(frame(1608), T0 + 7_000);
    expect(positions(b.takeUnsent())).toEqual(positions([frame(0, 1608)]));
    expect(b.ack(100)).toBe(true); // ACKs are whole ms
    expect(b.partComplete).toBe(true);
    b.connectionClosed();
    b.connectionOpened();
    expect(positions(b.takeUnsent())).toEqual(positions([frame(1608)]));
  });

  it('keeps its part starts across a reload (restore), dropping those already on the server', () => {
    const b = FrameBuffer.restore({ ackedSamples: 1600, sessionBaseMs: 0, chunks: [{ start: 1600, samples: frame(1600), at: T0 + 100 }, { start: 3200, samples: frame(3200), at: T0 + 9_000 }], partStarts: [800, 3200] });
    expect(b.position.partStarts).toEqual([3200]);
    b.connectionOpened();
    expect(positions(b.takeUnsent())).toEqual(positions([frame(1600)]));
    b.ack(100);
    expect(b.partComplete).toBe(true);
    b.connectionClosed();
    b.connectionOpened();
    expect(b.connectionStartTime()).toBe(T0 + 9_000);
  });

  it('over any drops, lost ACKs and restarts: loses nothing, keeps each recording within one part, dated by its first sample', () => {
    type Op = { kind: 'push'; ms: number } | { kind: 'restart' } | { kind: 'drop'; extra: number } | { kind: 'ack'; fraction: number };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), ms: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('restart' as const) }),
      fc.record({ kind: fc.constant('drop' as const), extra: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({ kind: fc.constant('ack' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 50 }), (ops: Op[]) => {
        const b = new FrameBuffer({ probe: true });
        let next = 0;
        let clock = T0;
        const chunks: Array<{ start: number; n: number; at: number }> = [];
        const partStarts: number[] = [];
        const recordings: Array<{ audio: number[]; startTime: number | undefined }> = [];
        let received: number[] = [];
        let startTime: number | undefined;
        let ackedMs = 0;
        let recOffset = 0;
        let sessionMs = 0;
        let drops = 0;
        const receivedMs = () => received.length / 16;
        const serverAck = (ms: number) => {
          ackedMs = ms;
          expect(b.ack(ms, recOffset + ms)).toBe(true);
        };
        const open = () => {
          b.connectionOpened();
          received = [];
          startTime = undefined;
          ackedMs = 0;
          recOffset = sessionMs;
        };
        const close = (keptMs: number) => {
          recordings.push({ audio: received.slice(0, keptMs * 16), startTime });
          sessionMs += keptMs;
          b.connectionClosed();
        };
        /** What the recorder's pump does: the next part's connection once this one's is stored, else send. */
        const pump = () => {
          for (let i = 0; i < 4; i++) {
            if (b.partComplete) {
              close(receivedMs());
              open();
            }
            const got = b.takeUnsent();
            if (got.length > 0 && received.length === 0) startTime = b.connectionStartTime();
            received.push(...positions(got));
            // The server answers a probe at once.
            if (b.awaitingProbeAck) serverAck(receivedMs());
          }
        };
        open();
        for (const o of ops) {
          if (o.kind === 'push') {
            chunks.push({ start: next, n: o.ms * 16, at: clock });
            b.push(frame(next, o.ms * 16), clock);
            next += o.ms * 16;
            clock += o.ms;
          } else if (o.kind === 'restart') {
            clock += 5_000;
            b.markPartStart();
            if (next > 0 && partStarts.at(-1) !== next) partStarts.push(next);
          } else if (o.kind === 'ack') {
            const ms = Math.floor(receivedMs() * o.fraction);
            if (ms > ackedMs) serverAck(ms);
          } else {
            // The server keeps between the last ACK and all it received; the client saw only the ACK.
            close(ackedMs + Math.floor((receivedMs() - ackedMs) * o.extra));
            drops++;
            open();
          }
          pump();
        }
        for (let i = 0; i < 100 && !b.allAcked; i++) {
          if (receivedMs() > ackedMs) serverAck(receivedMs());
          pump();
        }
        expect(b.allAcked).toBe(true);
        close(receivedMs());

        const partOf = (p: number) => partStarts.filter((s) => s <= p).length;
        const atOf = (p: number) => {
          const c = chunks.find((x) => x.start <= p && p < x.start + x.n)!;
          return c.at + (p - c.start) / 16;
        };
        let j = 0;
        let repeated = 0;
        for (const r of recordings) {
          if (r.audio.length === 0) continue;
          expect(new Set(r.audio.map(partOf)).size).toBe(1);
          expect(r.startTime).toBeCloseTo(atOf(r.audio[0]!), 6);
          for (const p of r.audio) {
            if (p === j) j++;
            else if (p < j) repeated++;
            else throw new Error(`sample ${j} was lost (next stored: ${p})`);
          }
        }
        expect(j).toBe(next);
        expect(repeated).toBeLessThanOrEqual(16 * drops);
      }),
      { numRuns: 400 },
    );
  });
});
