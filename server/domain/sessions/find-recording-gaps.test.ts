import { describe, expect, it } from 'vitest';
import { findRecordingGaps, type RecordingPart } from './find-recording-gaps';

const T = BigInt(Date.parse('2026-02-01T10:42:00.000Z')) * 1000n;
const SEC = 1_000_000n;
/** A part holding `ms` of audio whose START_TIME is `startMicros` (null: none), at `offsetMs` on the session's timeline. */
const part = (sequenceNumber: number, startMicros: bigint | null, offsetMs: number, ms: number): RecordingPart => ({
  sequenceNumber,
  startMicros,
  sessionOffsetMs: offsetMs,
  durableBytes: ms * 32,
});

describe('findRecordingGaps', () => {
  it('finds none between contiguous parts (a resend after an outage starts where its audio began)', () => {
    expect(findRecordingGaps([part(1, T, 0, 5_000), part(2, T + 5n * SEC, 5_000, 3_000), part(3, T + 8n * SEC, 8_000, 1_000)])).toEqual([]);
  });

  it('finds none for a single part or none at all', () => {
    expect(findRecordingGaps([])).toEqual([]);
    expect(findRecordingGaps([part(1, T, 0, 5_000)])).toEqual([]);
  });

  it('finds a 12 s gap at the offset where the next part begins, with its wall-clock ends', () => {
    // Part 1 records 10:42:00–10:42:05; the recorder continues at 10:42:17.
    expect(findRecordingGaps([part(1, T, 0, 5_000), part(2, T + 17n * SEC, 5_000, 2_000)])).toEqual([
      {
        at_offset: { hours: 0, minutes: 0, seconds: 5, nanos: 0 },
        start_time: '2026-02-01T10:42:05.000000000Z',
        end_time: '2026-02-01T10:42:17.000000000Z',
        duration_ms: 12_000,
        cause: null,
      },
    ]);
  });

  it("gives each gap the cause the part after it started for (START_TIME's reason), null where none was given", () => {
    const paused = { ...part(2, T + 17n * SEC, 5_000, 2_000), startReason: 'PAUSED' as const };
    const reloaded = { ...part(3, T + 40n * SEC, 7_000, 1_000), startReason: 'PAGE_RELOADED' as const };
    expect(findRecordingGaps([{ ...part(1, T, 0, 5_000), startReason: 'CAPTURE_STALLED' }, paused, reloaded]).map((g) => g.cause)).toEqual(['PAUSED', 'PAGE_RELOADED']);
    expect(findRecordingGaps([part(1, T, 0, 5_000), { ...paused, startReason: null }]).map((g) => g.cause)).toEqual([null]);
    // A part with no audio is passed over, its reason too: the gap's cause is that of the part whose audio ends it.
    const empty = { ...part(2, T + 10n * SEC, 5_000, 0), startReason: 'MICROPHONE_DISCONNECTED' as const };
    expect(findRecordingGaps([part(1, T, 0, 5_000), empty, { ...paused, sequenceNumber: 3 }]).map((g) => g.cause)).toEqual(['PAUSED']);
  });

  it('keeps sub-millisecond START_TIMEs exact and orders parts by sequence number', () => {
    const gaps = findRecordingGaps([part(3, T + 40n * SEC + 250n, 8_000, 1_000), part(1, T + 1n, 0, 5_000), part(2, T + 20n * SEC, 5_000, 3_000)]);
    expect(gaps.map((g) => [g.start_time, g.end_time, g.duration_ms])).toEqual([
      ['2026-02-01T10:42:05.000001000Z', '2026-02-01T10:42:20.000000000Z', 15_000],
      ['2026-02-01T10:42:23.000000000Z', '2026-02-01T10:42:40.000250000Z', 17_000],
    ]);
    expect(gaps.map((g) => g.at_offset.seconds)).toEqual([5, 8]);
  });

  it('reports nothing where either part has no START_TIME', () => {
    expect(findRecordingGaps([part(1, null, 0, 5_000), part(2, T + 60n * SEC, 5_000, 1_000)])).toEqual([]);
    expect(findRecordingGaps([part(1, T, 0, 5_000), part(2, null, 5_000, 1_000)])).toEqual([]);
  });

  it('ignores sub-second jitter and overlaps', () => {
    expect(findRecordingGaps([part(1, T, 0, 5_000), part(2, T + 5n * SEC + 999_000n, 5_000, 1_000)])).toEqual([]);
    expect(findRecordingGaps([part(1, T, 0, 5_000), part(2, T + 3n * SEC, 5_000, 1_000)])).toEqual([]);
  });

  it("measures a gap from where the audio ends, not from a reconnect's probe dated inside it (the browser trial of 2 Dec)", () => {
    // Part 2 ends 10:22:17.234; the reloaded page's 1 ms probe is dated 200 ms before that; "Continue recording" at 10:22:20.441.
    const at = (iso: string) => BigInt(Date.parse(iso)) * 1000n;
    const gaps = findRecordingGaps([
      part(1, at('2026-12-02T10:20:42.234Z'), 0, 27_200),
      part(2, at('2026-12-02T10:21:09.434Z'), 27_200, 67_800),
      part(3, at('2026-12-02T10:22:17.034Z'), 95_000, 1),
      { ...part(4, at('2026-12-02T10:22:20.441Z'), 95_001, 2_888), startReason: 'PAGE_RELOADED' },
    ]);
    expect(gaps).toEqual([
      {
        at_offset: { hours: 0, minutes: 1, seconds: 35, nanos: 1_000_000 },
        start_time: '2026-12-02T10:22:17.234000000Z',
        end_time: '2026-12-02T10:22:20.441000000Z',
        duration_ms: 3_207,
        cause: 'PAGE_RELOADED',
      },
    ]);
  });

  it('measures from a part the recorder began after an unrecorded stretch, even if its clock went back', () => {
    const reloaded = { ...part(2, T - 60n * SEC, 5_000, 2_000), startReason: 'PAGE_RELOADED' as const };
    expect(findRecordingGaps([part(1, T, 0, 5_000), reloaded, part(3, T - 50n * SEC, 7_000, 1_000)]).map((g) => [g.start_time, g.duration_ms])).toEqual([
      ['2026-02-01T10:41:02.000000000Z', 8_000],
    ]);
  });

  it('counts a gap of exactly 1 s', () => {
    expect(findRecordingGaps([part(1, T, 0, 5_000), part(2, T + 6n * SEC, 5_000, 1_000)]).map((g) => g.duration_ms)).toEqual([1_000]);
  });

  it('passes over a part with no audio, so one gap is not split in two', () => {
    // A connection that dropped before any audio was stored: its START_TIME is that of audio resent later.
    const gaps = findRecordingGaps([part(1, T, 0, 5_000), part(2, T + 10n * SEC, 5_000, 0), part(3, T + 17n * SEC, 5_000, 2_000)]);
    expect(gaps.map((g) => [g.at_offset.seconds, g.duration_ms])).toEqual([[5, 12_000]]);
  });

  it('measures a part by its stored bytes, to the nanosecond', () => {
    // 16,002 bytes (8,001 samples) is 500.0625 ms.
    const gaps = findRecordingGaps([{ sequenceNumber: 1, startMicros: T, sessionOffsetMs: 0, durableBytes: 16_002 }, part(2, T + 2n * SEC, 500, 1_000)]);
    expect(gaps[0]).toMatchObject({ start_time: '2026-02-01T10:42:00.500062500Z', duration_ms: 1_500 });
  });
});
