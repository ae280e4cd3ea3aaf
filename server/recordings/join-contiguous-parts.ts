import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import type { RecordingAudio } from './load-audio';

/**
 * How far apart (either way) one part's end and the next part's START_TIME may be for the next to continue
 * the same audio. The recorder dates a resend after an outage by the samples it captured, so the two meet to
 * the millisecond of START_TIME's rounding; a recorder frame is 100 ms, so even one frame never delivered is
 * well past this and keeps the parts apart. A client dating parts by arrival misses it and keeps them apart
 * too, as before.
 */
export const JOIN_TOLERANCE_MS = 20;

/** Recording parts that hold one continuous stretch of audio, to be decoded as one. */
export interface AudioStream {
  /** In sequence; each begins where the one before it ends, on the timeline and on the wall clock. */
  parts: RecordingAudio[];
  /** The parts' audio end to end. */
  pcm: Buffer;
  /** Where the stream begins on the session timeline: its first part's offset. */
  offsetMs: number;
}

/**
 * How far a resend's START_TIME may lie before the end of the part before it and still be that part's
 * continuation. After a drop the browser recorder opens the new connection with a 1 ms probe of the audio at its
 * last ACK, dated there; when ACKs were lost with the connection the server already holds more, and the ACK of
 * the probe sends the recorder on from where the stored audio really ends (FrameBuffer's probe). That part's
 * START_TIME is then earlier than the part before ends by the audio whose ACKs were lost: a few hundred ms seen
 * in a browser trial (28 Nov), bounded here by what a recorder keeps unacknowledged in a few seconds.
 */
export const MAX_PROBE_OVERLAP_MS = 5_000;
// START_TIME is to the ms, each side; the probe's position is searched this far (bytes) either way.
const PROBE_SEARCH_BYTES = 3 * BYTES_PER_MS;

/** Where in the part before (bytes, `to` exclusive) a resend's probe is looked for; null when the part is no probe resend by its times and size. */
export function probeSearchRange(prevStartMs: number, prevBytes: number, nextStartMs: number, nextBytes: number): { from: number; to: number } | null {
  const overlapMs = prevStartMs + prevBytes / BYTES_PER_MS - nextStartMs;
  if (overlapMs <= JOIN_TOLERANCE_MS || overlapMs > MAX_PROBE_OVERLAP_MS || nextBytes < BYTES_PER_MS) return null;
  const at = 2 * Math.round(((nextStartMs - prevStartMs) * BYTES_PER_MS) / 2);
  const from = Math.max(0, at - PROBE_SEARCH_BYTES);
  const to = Math.min(prevBytes - BYTES_PER_MS, at + PROBE_SEARCH_BYTES) + BYTES_PER_MS;
  return to - from >= BYTES_PER_MS ? { from, to } : null;
}

/** The probe (a part's first 1 ms) is somewhere in `window`, the bytes probeSearchRange names, on a sample boundary. */
export function windowHoldsProbe(window: Buffer, probe: Buffer): boolean {
  for (let p = 0; p + BYTES_PER_MS <= window.length; p += 2) {
    if (window.subarray(p, p + BYTES_PER_MS).equals(probe)) return true;
  }
  return false;
}

/** The part's first 1 ms repeats the part before at its own START_TIME: the recorder's probe, then the resend. */
function probeResend(prev: Buffer, prevStart: number, next: Buffer, nextStart: number): boolean {
  const range = probeSearchRange(prevStart, prev.length, nextStart, next.length);
  return range !== null && windowHoldsProbe(prev.subarray(range.from, range.to), next.subarray(0, BYTES_PER_MS));
}

function continues(prev: RecordingAudio, next: RecordingAudio): boolean {
  // The recorder said this part began after a stretch it did not record (a pause, a reload, a stall): never
  // joined, whatever the clocks say.
  if (next.startReason !== null || prev.startTimeMs === null || next.startTimeMs === null) return false;
  if (Math.abs(next.startTimeMs - (prev.startTimeMs + prev.pcm.length / BYTES_PER_MS)) <= JOIN_TOLERANCE_MS) return true;
  // Joined with its probe: 1 ms heard twice, on the timeline as stored (offsets run on across parts).
  return probeResend(prev.pcm, prev.startTimeMs, next.pcm, next.startTimeMs);
}

/**
 * A session's parts as the streams of audio they hold. A reconnect after a network drop resends from the
 * first unacknowledged sample, so its part goes on where the one before stopped, often within a word; decoded
 * apart, that word is cut in two ("any doses" became "any does says"). Joined, it is decoded whole. Parts
 * with time between them (a reload, a pause, sound never captured: the transcript's recording_gaps), or that
 * the recorder says began after such a stretch (START_TIME's reason), stay apart, so no word is made across
 * a stretch nobody recorded. Parts without audio are passed over, as findRecordingGaps does.
 */
export function joinContiguousParts(recs: readonly RecordingAudio[]): AudioStream[] {
  const streams: RecordingAudio[][] = [];
  for (const rec of recs) {
    if (rec.pcm.length === 0) continue;
    const current = streams[streams.length - 1];
    const last = current?.[current.length - 1];
    if (current && last && continues(last, rec)) current.push(rec);
    else streams.push([rec]);
  }
  return streams.map((parts) => ({ parts, pcm: parts.length === 1 ? parts[0]!.pcm : Buffer.concat(parts.map((p) => p.pcm)), offsetMs: parts[0]!.offsetMs }));
}
