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

  it('sends why capture started again with the connection that begins at the part start, again after a drop there, and not with a resend from inside the part', () => {
    const b = new FrameBuffer({ probe: true });
    b.connectionOpened();
    b.push(frame(0), T0);
    b.push(frame(1600), T0 + 100);
    b.markPartStart('PAUSED');
    b.markPartStart('CAPTURE_STALLED'); // no audio between: one part start, with the first reason
    b.push(frame(3200), T0 + 45_200);
    b.push(frame(4800), T0 + 45_300);
    expect(b.connectionStartReason).toBeNull(); // the visit's first recording
    b.takeUnsent();
    b.ack(1, 1);
    b.takeUnsent();
    b.ack(200, 200);
    expect(b.partComplete).toBe(true);
    b.connectionClosed();
    b.connectionOpened();
    expect([b.connectionStartTime(), b.connectionStartReason]).toEqual([T0 + 45_200, 'PAUSED']);
    b.takeUnsent(); // the probe
    b.connectionClosed(); // dropped before the server stored any of the part
    b.connectionOpened();
    expect([b.connectionStartTime(), b.connectionStartReason]).toEqual([T0 + 45_200, 'PAUSED']);
    b.takeUnsent();
    b.ack(1, 201);
    b.takeUnsent();
    b.ack(50, 250);
    b.connectionClosed(); // dropped inside the part: the resend is no new part
    b.connectionOpened();
    expect([b.connectionStartTime(), b.connectionStartReason]).toEqual([T0 + 45_250, null]);
    expect(b.position.partReasons).toBeUndefined(); // nothing left to send it with
  });

  it('keeps the reason of a part start through a reload (position, restore), also for a page whose first part follows a stop', () => {
    const b = new FrameBuffer({ probe: true });
    b.markPartStart('PAGE_RELOADED'); // this page continues a visit: its first part too
    b.push(frame(0), T0);
    b.markPartStart('MICROPHONE_DISCONNECTED');
    b.push(frame(1600), T0 + 30_000);
    expect(b.position.partStarts).toEqual([1600]);
    expect(b.position.partReasons).toEqual([
      { sample: 0, reason: 'PAGE_RELOADED' },
      { sample: 1600, reason: 'MICROPHONE_DISCONNECTED' },
    ]);
    // The page goes away before anything was sent, and the next one restores what it kept.
    const chunks = [
      { start: 0, samples: frame(0), at: T0 },
      { start: 1600, samples: frame(1600), at: T0 + 30_000 },
    ];
    const again = FrameBuffer.restore({ ...b.position, chunks }, { probe: true });
    again.markPartStart('PAGE_RELOADED'); // "Continue recording" on the new page
    again.push(frame(3200), T0 + 90_000);
    again.connectionOpened();
    expect(again.connectionStartReason).toBe('PAGE_RELOADED');
    again.takeUnsent();
    again.ack(1, 1);
    again.takeUnsent();
    again.ack(100, 100);
    again.connectionClosed();
    again.connectionOpened();
    expect(again.connectionStartReason).toBe('MICROPHONE_DISCONNECTED');
    // Stored up to the part start: a reload now still knows why the next part began, not the parts before.
    const kept = again.position;
    expect(kept.partReasons).toEqual([
      { sample: 1600, reason: 'MICROPHONE_DISCONNECTED' },
      { sample: 3200, reason: 'PAGE_RELOADED' },
    ]);
    const third = FrameBuffer.restore({ ...kept, chunks: chunks.slice(1).concat({ start: 3200, samples: frame(3200), at: T0 + 90_000 }) }, { probe: true });
    third.connectionOpened();
    expect([third.connectionStartTime(), third.connectionStartReason]).toEqual([T0 + 30_000, 'MICROPHONE_DISCONNECTED']);
    // Older kept captures have no reasons: none are sent.
    const older = FrameBuffer.restore({ ackedSamples: 1600, sessionBaseMs: 0, chunks: chunks.slice(1), partStarts: [1600] });
    older.connectionOpened();
    expect(older.connectionStartReason).toBeNull();
  });

  it('over any drops, lost ACKs and restarts: loses nothing, keeps each recording within one part, dated by its first sample', () => {
    type Op = { kind: 'push'; ms: number } | { kind: 'restart'; reason: 'PAUSED' | 'CAPTURE_STALLED' } | { kind: 'drop'; extra: number } | { kind: 'ack'; fraction: number };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), ms: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('restart' as const), reason: fc.constantFrom('PAUSED' as const, 'CAPTURE_STALLED' as const) }),
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
        const reasonAt = new Map<number, string>();
        const recordings: Array<{ audio: number[]; startTime: number | undefined; reason: string | null }> = [];
        let received: number[] = [];
        let startTime: number | undefined;
        let reason: string | null = null;
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
          recordings.push({ audio: received.slice(0, keptMs * 16), startTime, reason });
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
            if (got.length > 0 && received.length === 0) [startTime, reason] = [b.connectionStartTime(), b.connectionStartReason];
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
            b.markPartStart(o.reason);
            if (next > 0 && partStarts.at(-1) !== next) partStarts.push(next);
            if (!reasonAt.has(next)) reasonAt.set(next, o.reason);
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
          // Why its part began only for a recording that begins at the part start (a resend from inside it: none).
          expect(r.reason).toBe(reasonAt.get(r.audio[0]!) ?? null);
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
