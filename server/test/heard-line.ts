import type { TranscriptLine } from '../engines/notes/types';

/** A recognised line `t${i}`, 5 s after the one before, whose listed words came back below LOW_CONFIDENCE. */
export function heard(i: number, speaker: TranscriptLine['speaker'], text: string, low: string[] = []): TranscriptLine {
  return {
    transcriptId: `t${i}`,
    speaker,
    text,
    startMs: i * 5000,
    endMs: i * 5000 + 4000,
    words: text.split(' ').map((w, k) => ({ text: w, startMs: i * 5000 + k * 300, endMs: i * 5000 + k * 300 + 250, confidence: low.includes(w) ? 0.2 : 0.9 })),
  };
}
