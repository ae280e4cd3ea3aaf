import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { recordings } from '../db/schema';
import type { DecodedPrefix, SpeechBias, SpeechSegment } from '../engines/speech/types';
import type { TranscriptWord } from '@/lib/transcript/confidence';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import { getSpeechEngine } from '../engines/index';
import { FinaliseError } from './finalise-error';
import { reuseLiveResult } from '../recordings/reuse-live-result';
import type { AudioStream } from '../recordings/join-contiguous-parts';
import type { RecordingAudio } from '../recordings/load-audio';
import { systemDb } from '../db/index';

const SYSTEM = 'finalisation worker: one session of any tenant, by id';

export interface TimedSegment {
  recordingId: string;
  text: string;
  /** On the session timeline, as are its words'. */
  startMs: number;
  endMs: number;
  lang?: string;
  confidence?: number;
  words?: TranscriptWord[];
  /** Decoded without the session's vocabulary, which could not be built (SpeechSegment.unbiased). */
  unbiased?: true;
}

/**
 * The part a segment belongs to: the one in which it starts (ms from the stream's start). A segment spoken
 * across a join is one entry, kept with the part whose audio began it; its end and words may lie in the next.
 */
function partAt(stream: AudioStream, startMs: number): RecordingAudio {
  let bytes = 0;
  let found = stream.parts[0]!;
  for (const p of stream.parts) {
    if (bytes / BYTES_PER_MS > startMs) break;
    found = p;
    bytes += p.pcm.length;
  }
  return found;
}

function partsLabel(stream: AudioStream): string {
  const seqs = stream.parts.map((p) => p.sequenceNumber);
  return seqs.length === 1 ? `recording ${seqs[0]}` : `recordings ${seqs[0]}-${seqs[seqs.length - 1]}`;
}

/**
 * One stream's final segments on the session timeline: what the engine gives for its complete stored audio,
 * its parts end to end (a part that continues another is decoded with it, join-contiguous-parts.ts). What
 * the live pass decoded of the first part's audio with the same engine and vocabulary is that result already:
 * it is taken, and only what the live pass did not reach (it fell behind and was cut off, the connection
 * dropped, or the utterance went on into the next part) is decoded here; with no usable live result (failed,
 * other settings, other context) all is. The next parts' live results are not taken: their live pass started
 * mid-utterance, with the recogniser's state fresh, so nothing shows they equal this decode, and those parts
 * are decoded again. Either way the same audio gives the same transcript on an idle or a saturated machine.
 */
export async function transcribeStream(
  app: AppContext,
  stream: AudioStream,
  bias?: SpeechBias,
): Promise<{ segments: TimedSegment[]; liveUtterances: number; liveComplete: boolean }> {
  const first = stream.parts[0];
  if (!first || stream.pcm.length === 0) return { segments: [], liveUtterances: 0, liveComplete: false };
  let segs: SpeechSegment[];
  let decoded: DecodedPrefix | null = null;
  let unbiased: string | null = null;
  try {
    decoded = await reuseLiveResult(app, { blobKey: first.blobKey, pcm: stream.pcm }, bias);
    segs = await getSpeechEngine(app).transcribe(stream.pcm, { bias, ...(decoded ? { decoded } : {}), onUnbiased: (reason) => (unbiased = reason) });
  } catch (err) {
    throw new FinaliseError('TRANSCRIPTION_FAILED', `${partsLabel(stream)} could not be transcribed: ${(err as Error).message}`);
  }
  if (unbiased !== null) {
    // Not a silent fallback (issue 30 item 6): which session lost its vocabulary, and why (no PHI: the reason
    // is the engine's error, not the words).
    const [row] = await systemDb(app, SYSTEM).select({ sessionId: recordings.sessionId }).from(recordings).where(eq(recordings.id, first.id));
    app.log.warn({ sessionId: row?.sessionId, recordingId: first.id, reason: unbiased }, 'session vocabulary decoder could not be built: transcript decoded unbiased');
  }
  const at = (ms: number) => Math.round(ms + stream.offsetMs);
  const segments = segs
    .filter((s) => s.text.trim())
    .map((s) => ({
      recordingId: partAt(stream, s.startMs).id,
      text: s.text,
      startMs: s.startMs + stream.offsetMs,
      endMs: s.endMs + stream.offsetMs,
      lang: s.lang,
      confidence: s.confidence,
      words: s.words.some((w) => w.confidence !== undefined)
        ? s.words.map((w) => ({ text: w.word, startMs: at(w.startMs), endMs: at(w.endMs), confidence: w.confidence ?? 1 }))
        : undefined,
      ...(s.unbiased ? { unbiased: s.unbiased } : {}),
    }));
  return { segments, liveUtterances: decoded?.utterances ?? 0, liveComplete: !!decoded?.complete && decoded.bytes === stream.pcm.length };
}
