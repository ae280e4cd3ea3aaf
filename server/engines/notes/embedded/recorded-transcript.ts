import type { TranscriptLine } from '../types';

/**
 * A visit recorded in a browser trial, as its test fixture keeps it: each line's speaker and times, and its words
 * with the recogniser's confidences (the lines' own text is those words).
 */
export type RecordedLine = { speaker: 'CLINICIAN' | 'PATIENT'; startMs: number; endMs: number; words: Array<[string, number]> };

/** The fixture as transcript lines r1, r2, …; each word carries its line's times (the fixture keeps none of its own). */
export function recordedTranscript(lines: RecordedLine[]): TranscriptLine[] {
  return lines.map((e, i) => ({
    transcriptId: `r${i + 1}`,
    speaker: e.speaker,
    text: e.words.map(([w]) => w).join(' '),
    startMs: e.startMs,
    endMs: e.endMs,
    words: e.words.map(([text, confidence]) => ({ text, confidence, startMs: e.startMs, endMs: e.endMs })),
  }));
}
