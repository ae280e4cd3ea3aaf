import { describe, expect, it } from 'vitest';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import { JOIN_TOLERANCE_MS, MAX_PROBE_OVERLAP_MS, joinContiguousParts } from './join-contiguous-parts';
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
  describe('a resend whose 1 ms probe found the server held more than its last ACK (ACKs lost with the connection)', () => {
    // What one capture run gave, sample by sample (no two 1 ms windows alike); the server stored `heldMs` of it
    // before the drop, the recorder had an ACK for `ackedMs`: the new part is the probe (1 ms from ackedMs, dated
    // there) and then the audio from heldMs on.
    const capture = Buffer.alloc(8_000 * BYTES_PER_MS);
    for (let i = 0; i < capture.length / 2; i++) capture.writeInt16LE(((i * 7919) % 65_536) - 32_768, i * 2);
    const resend = (heldMs: number, ackedMs: number, probeFrom = ackedMs) => {
      const [first, second] = parts({ ms: heldMs, start: 0 }, { ms: 8_000 - heldMs, start: ackedMs });
      first!.pcm = capture.subarray(0, heldMs * BYTES_PER_MS);
      second!.pcm = Buffer.concat([capture.subarray(probeFrom * BYTES_PER_MS, (probeFrom + 1) * BYTES_PER_MS), capture.subarray(heldMs * BYTES_PER_MS)]);
      return [first!, second!];
    };

    it('is joined: the probe repeats the stored audio at its START_TIME, and the rest goes on where that part ends', () => {
      const recs = resend(2_300, 1_900);
      const streams = joinContiguousParts(recs);
      expect(ids(streams)).toEqual([['r1', 'r2']]);
      // As stored: the 1 ms probe heard twice, the offsets running on as the session timeline does.
      expect(streams[0]!.pcm).toEqual(Buffer.concat(recs.map((r) => r.pcm)));
    });

    it('is kept apart when its first 1 ms is not the stored audio at its START_TIME, or it starts too far back', () => {
      expect(ids(joinContiguousParts(resend(2_300, 1_900, 1_500)))).toEqual([['r1'], ['r2']]);
      // A probe that matches, but further back than a recorder keeps unacknowledged.
      expect(ids(joinContiguousParts(resend(MAX_PROBE_OVERLAP_MS + 1_500, 1_400)))).toEqual([['r1'], ['r2']]);
      expect(ids(joinContiguousParts(resend(MAX_PROBE_OVERLAP_MS + 1_500, 1_600)))).toEqual([['r1', 'r2']]);
    });
  });
});
