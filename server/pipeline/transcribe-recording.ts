import type { AppContext } from '../context';
import type { SpeechBias, SpeechSegment } from '../engines/speech/types';
import type { TranscriptWord } from '@/lib/transcript/confidence';
import { getSpeechEngine } from './engines';
import { FinaliseError } from './finalise-error';
import { reuseLiveResult } from './reuse-live-result';

export interface RecordingAudio {
  id: string;
  sequenceNumber: number;
  blobKey: string;
  /** Offset on the session timeline, from the audio actually stored. */
  offsetMs: number;
  storedOffsetMs: number;
  /** Set when the live recogniser finished the whole recording (server/pipeline/close-recording.ts). */
  liveTranscriptMs: number | null;
  pcm: Buffer;
}

export interface TimedSegment {
  recordingId: string;
  text: string;
  startMs: number;
  endMs: number;
  lang?: string;
  confidence?: number;
  /** Recording-relative until the session offset is added. */
  words?: TranscriptWord[];
}

/**
 * One recording's final segments (recording-relative): what the engine gives for its complete stored audio.
 * Where the live pass decoded exactly that audio with the same engine and vocabulary, its segments are that
 * result already and are taken instead of decoding each second twice; otherwise (the live pass fell behind
 * and was cut off, failed, ran elsewhere with other settings, or the context changed) the recording is
 * decoded here. Either way the same audio gives the same transcript on an idle or a saturated machine.
 */
export async function transcribeRecording(app: AppContext, rec: RecordingAudio, bias?: SpeechBias): Promise<{ segments: TimedSegment[]; reused: boolean }> {
  if (rec.pcm.length === 0) return { segments: [], reused: false };
  let segs: SpeechSegment[];
  let reused = false;
  try {
    const live = await reuseLiveResult(app, rec, bias);
    reused = live !== null;
    segs = live ?? (await getSpeechEngine(app).transcribe(rec.pcm, { bias }));
  } catch (err) {
    throw new FinaliseError('TRANSCRIPTION_FAILED', `recording ${rec.sequenceNumber} could not be transcribed: ${(err as Error).message}`);
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
    }));
  return { segments, reused };
}
