import crypto from 'node:crypto';
import type { SpeechBias, SpeechSegment } from '../engines/speech/types';

/**
 * What the live recogniser produced for one whole recording, kept beside its audio (issue 18: decode each
 * second once). The final pass reuses `segments` only when they are provably what its own decode would give:
 * the same engine build and settings (`engine`), the same session vocabulary (`bias`), and the same bytes
 * (`bytes`, `sha256` of everything fed, compared with the stored recording). Anything else is decoded again.
 */
export interface LiveResult {
  v: 1;
  engine: string;
  bias: string;
  bytes: number;
  sha256: string;
  /** The engine's final segments in the order it emitted them, recording-relative, unfiltered. */
  segments: SpeechSegment[];
}

/** Beside the recording's PCM, so it lives and moves with the audio in either blob store. */
export function liveResultKey(blobKey: string): string {
  return `${blobKey}.live.json`;
}

/** Order-preserving: the engine's vocabulary is built from the terms in this order. */
export function biasDigest(bias: SpeechBias | undefined): string {
  return crypto.createHash('sha256').update(JSON.stringify(bias ?? null)).digest('hex');
}
