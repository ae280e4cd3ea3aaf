import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { recordings } from '../db/schema';
import type { DecodedPrefix, SpeechBias, SpeechSegment } from '../engines/speech/types';
import type { TranscriptWord } from '@/lib/transcript/confidence';
import { getSpeechEngine } from '../engines/index';
import { FinaliseError } from './finalise-error';
import { reuseLiveResult } from '../recordings/reuse-live-result';
import type { RecordingAudio } from '../recordings/load-audio';
import { systemDb } from '../db/index';

const SYSTEM = 'finalisation worker: one session of any tenant, by id';

export interface TimedSegment {
  recordingId: string;
  text: string;
  startMs: number;
  endMs: number;
  lang?: string;
  confidence?: number;
  /** Recording-relative until the session offset is added. */
  words?: TranscriptWord[];
  /** Decoded without the session's vocabulary, which could not be built (SpeechSegment.unbiased). */
  unbiased?: true;
}

/**
 * One recording's final segments (recording-relative): what the engine gives for its complete stored audio.
 * What the live pass decoded of exactly that audio with the same engine and vocabulary is that result
 * already: it is taken, and only what the live pass did not reach (it fell behind and was cut off, or the
 * connection dropped) is decoded here; with no usable live result (failed, other settings, other context)
 * all is. Either way the same audio gives the same transcript on an idle or a saturated machine.
 */
export async function transcribeRecording(
  app: AppContext,
  rec: RecordingAudio,
  bias?: SpeechBias,
): Promise<{ segments: TimedSegment[]; liveUtterances: number; liveComplete: boolean }> {
  if (rec.pcm.length === 0) return { segments: [], liveUtterances: 0, liveComplete: false };
  let segs: SpeechSegment[];
  let decoded: DecodedPrefix | null = null;
  let unbiased: string | null = null;
  try {
    decoded = await reuseLiveResult(app, rec, bias);
    segs = await getSpeechEngine(app).transcribe(rec.pcm, { bias, ...(decoded ? { decoded } : {}), onUnbiased: (reason) => (unbiased = reason) });
  } catch (err) {
    throw new FinaliseError('TRANSCRIPTION_FAILED', `recording ${rec.sequenceNumber} could not be transcribed: ${(err as Error).message}`);
  }
  if (unbiased !== null) {
    // Not a silent fallback (issue 30 item 6): which session lost its vocabulary, and why (no PHI: the reason
    // is the engine's error, not the words).
    const [row] = await systemDb(app, SYSTEM).select({ sessionId: recordings.sessionId }).from(recordings).where(eq(recordings.id, rec.id));
    app.log.warn({ sessionId: row?.sessionId, recordingId: rec.id, reason: unbiased }, 'session vocabulary decoder could not be built: transcript decoded unbiased');
  }
  const segments = segs
    .filter((s) => s.text.trim())
    .map((s) => ({
      recordingId: rec.id,
      text: s.text,
      startMs: s.startMs,
      endMs: s.endMs,
      lang: s.lang,
      confidence: s.confidence,
      words: s.words.some((w) => w.confidence !== undefined)
        ? s.words.map((w) => ({ text: w.word, startMs: w.startMs, endMs: w.endMs, confidence: w.confidence ?? 1 }))
        : undefined,
      ...(s.unbiased ? { unbiased: s.unbiased } : {}),
    }));
  return { segments, liveUtterances: decoded?.utterances ?? 0, liveComplete: !!decoded?.complete && decoded.bytes === rec.pcm.length };
}
