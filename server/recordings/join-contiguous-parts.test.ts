import { describe, expect, it } from 'vitest';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import { JOIN_TOLERANCE_MS, joinContiguousParts } from './join-contiguous-parts';
import type { RecordingAudio } from './load-audio';

const T0 = Date.parse('2026-11-28T10:00:00Z');

/** Parts laid end to end on the session timeline, as loadAudio gives them; `start` is each START_TIME (ms after T0). */
function parts(...spec: { ms: number; start: number | null; reason?: string }[]): RecordingAudio[] {
  let offsetMs = 0;
  return spec.map((s, i) => {
    const rec: RecordingAudio = {
      id: `r${i + 1}`,
      sequenceNumber: i + 1,
      blobKey: `k${i + 1}`,
      offsetMs,
      storedOffsetMs: offsetMs,
      startTimeMs: s.start === null ? null : T0 + s.start,
      startReason: s.reason ?? null,
      pcm: Buffer.alloc(s.ms * BYTES_PER_MS, i + 1),
    };
    offsetMs += s.ms;
    return rec;
  });
}
const ids = (streams: ReturnType<typeof joinContiguousParts>) => streams.map((s) => s.parts.map((p) => p.id));

describe('joinContiguousParts', () => {
  it('joins a part that starts where the one before it ended (a resend after a dropped connection)', () => {
    const recs = parts({ ms: 1500, start: 0 }, { ms: 700, start: 1500 }, { ms: 300, start: 2200 });
    const streams = joinContiguousParts(recs);
    expect(ids(streams)).toEqual([['r1', 'r2', 'r3']]);
    expect(streams[0]!.offsetMs).toBe(0);
    expect(streams[0]!.pcm).toEqual(Buffer.concat(recs.map((r) => r.pcm)));
  });

  it('joins within the tolerance either way (START_TIME rounding), not past it', () => {
    expect(ids(joinContiguousParts(parts({ ms: 1000, start: 0 }, { ms: 500, start: 1000 + JOIN_TOLERANCE_MS })))).toEqual([['r1', 'r2']]);
    expect(ids(joinContiguousParts(parts({ ms: 1000, start: 0 }, { ms: 500, start: 1000 - JOIN_TOLERANCE_MS })))).toEqual([['r1', 'r2']]);
    // One 100 ms recorder frame never delivered is speech nobody recorded: no word is made across it.
    expect(ids(joinContiguousParts(parts({ ms: 1000, start: 0 }, { ms: 500, start: 1100 })))).toEqual([['r1'], ['r2']]);
    expect(ids(joinContiguousParts(parts({ ms: 1000, start: 0 }, { ms: 500, start: 900 })))).toEqual([['r1'], ['r2']]);
  });

  it('keeps parts with a recording gap apart, each at its own offset', () => {
    const streams = joinContiguousParts(parts({ ms: 1000, start: 0 }, { ms: 500, start: 1000 }, { ms: 800, start: 21_500 }, { ms: 200, start: 22_300 }));
    expect(ids(streams)).toEqual([['r1', 'r2'], ['r3', 'r4']]);
    expect(streams.map((s) => s.offsetMs)).toEqual([0, 1500]);
  });

  it('keeps apart a part the recorder says began after a stretch it did not record, even where the clocks meet', () => {
    expect(ids(joinContiguousParts(parts({ ms: 1000, start: 0 }, { ms: 500, start: 1000, reason: 'CAPTURE_STALLED' })))).toEqual([['r1'], ['r2']]);
  });

  it('keeps apart parts whose START_TIME is unknown, and passes over parts without audio', () => {
    expect(ids(joinContiguousParts(parts({ ms: 1000, start: 0 }, { ms: 500, start: null })))).toEqual([['r1'], ['r2']]);
    expect(ids(joinContiguousParts(parts({ ms: 1000, start: 0 }, { ms: 0, start: 5000 }, { ms: 500, start: 1000 })))).toEqual([['r1', 'r3']]);
    expect(joinContiguousParts([])).toEqual([]);
  });
});
