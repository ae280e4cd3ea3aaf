import crypto from 'node:crypto';
import type { DecodedPrefix, SpeechBias } from '../engines/speech/types';

/**
 * What the live recogniser decoded of one recording, kept beside its audio (issue 18: decode each second
 * once). The final pass takes `decoded` only when it is provably part of its own result: the same engine
 * build and settings (`engine`), the same session vocabulary (`bias`), and the same bytes (`decoded.bytes`
 * and `decoded.sha256`, compared with the start of the stored recording). It then decodes only what follows.
 */
export interface LiveResult {
  v: 2;
  engine: string;
  bias: string;
  decoded: DecodedPrefix;
}

/** Beside the recording's PCM, so it lives and moves with the audio in either blob store. */
export function liveResultKey(blobKey: string): string {
  return `${blobKey}.live.json`;
}

/** Order-preserving: the engine's vocabulary is built from the terms in this order. */
export function biasDigest(bias: SpeechBias | undefined): string {
  return crypto.createHash('sha256').update(JSON.stringify(bias ?? null)).digest('hex');
}
