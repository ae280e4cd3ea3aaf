/**
 * Recognition confidence shared by the speech engines, the notes engine and the web app (DESIGN §12).
 * A word below LOW_CONFIDENCE is one the recogniser was unsure of: the web app marks it and the notes
 * engine never copies it into a note verbatim.
 */
export const LOW_CONFIDENCE = 0.5;

export interface TranscriptWord {
  text: string;
  /** Milliseconds from the start of the session's audio. */
  startMs: number;
  endMs: number;
  /** 0–1. */
  confidence: number;
}

export function isLowConfidence(confidence: number | null | undefined): boolean {
  return typeof confidence === 'number' && confidence < LOW_CONFIDENCE;
}
