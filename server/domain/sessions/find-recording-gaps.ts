import type { RecordingGap } from '@/lib/contracts/sessions';
import { BYTES_PER_MS, type PartStartReason } from '@/lib/contracts/stream-protocol';
import { formatNanoTimestamp, msToDuration } from './time';

/** Shorter differences between one part's end and the next one's START_TIME are the clocks' jitter, not lost speech. */
export const MIN_RECORDING_GAP_MS = 1000;

/** 31,250 ns for PCM16 at 16 kHz mono: a whole number, so a part's end is exact to the nanosecond. */
const NANOS_PER_BYTE = BigInt(1_000_000 / BYTES_PER_MS);

export interface RecordingPart {
  sequenceNumber: number;
  /** START_TIME (wall clock of the part's first sample) in microseconds since the epoch; null when never given. */
  startMicros: bigint | null;
  /** Where the part begins on the session's audio timeline. */
  sessionOffsetMs: number;
  /** PCM stored for the part. */
  durableBytes: number;
  /** Why the part began after a stretch nothing recorded (START_TIME's reason); null or absent when not given. */
  startReason?: PartStartReason | null;
}

/**
 * The wall-clock stretches between consecutive recording parts that no part holds: a recorder left stopped
 * after a page reload leaves one, while a resend after a network outage starts where the audio it carries
 * began and leaves none. A part with no audio is passed over: its START_TIME belongs to audio that was resent
 * in a later part or never arrived, so it would only split one gap in two. Where either side has no
 * START_TIME nothing can be said, and nothing is reported.
 */
export function findRecordingGaps(parts: readonly RecordingPart[]): RecordingGap[] {
  const withAudio = parts.filter((p) => p.durableBytes > 0).sort((a, b) => a.sequenceNumber - b.sequenceNumber);
  const gaps: RecordingGap[] = [];
  // Where the audio so far ends: a part dated inside audio already stored (a reconnect's 1 ms probe, 200 ms
  // before the end in a browser trial) must not pull the gap's start back before audio that exists. A part the
  // recorder began after an unrecorded stretch starts the count again, in case its clock was set back meanwhile.
  let heldEndNanos: bigint | null = null;
  for (let i = 1; i < withAudio.length; i++) {
    const prev = withAudio[i - 1]!;
    const next = withAudio[i]!;
    if (prev.startMicros === null) heldEndNanos = null;
    else {
      const end = prev.startMicros * 1000n + BigInt(prev.durableBytes) * NANOS_PER_BYTE;
      heldEndNanos = heldEndNanos !== null && heldEndNanos > end && !prev.startReason ? heldEndNanos : end;
    }
    if (heldEndNanos === null || next.startMicros === null) continue;
    const prevEndNanos = heldEndNanos;
    const nextStartNanos = next.startMicros * 1000n;
    const durationMs = Math.round(Number(nextStartNanos - prevEndNanos) / 1e6);
    if (durationMs < MIN_RECORDING_GAP_MS) continue;
    gaps.push({
      at_offset: msToDuration(next.sessionOffsetMs),
      start_time: formatNanoTimestamp(prevEndNanos),
      end_time: formatNanoTimestamp(nextStartNanos),
      duration_ms: durationMs,
      // The part after the gap is the one the recorder started because of it.
      cause: next.startReason ?? null,
    });
  }
  return gaps;
}
