import crypto from 'node:crypto';
import type { AppContext } from '../context';
import { getBlobStore } from '../blob/index';
import type { DecodedPrefix, SpeechBias } from '../engines/speech/types';
import { getSpeechEngine } from '../engines/index';
import { engineFingerprint } from './engine-fingerprint';
import { biasDigest, liveResultKey, type LiveResult } from './live-result';

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * Of a live pass that finished its part, what audio running on past the part's end also gives: the
 * utterances the part's own audio ended (DecodedPrefix.endedByAudio). Its last utterance, closed only because
 * the part ended, may go on into the next part and is decoded again with it. Null when the audio ended none,
 * or the live result predates the field.
 */
export function prefixEndedByAudio(decoded: DecodedPrefix): DecodedPrefix | null {
  const e = decoded.endedByAudio;
  if (!e || !isCount(e.utterances) || !isCount(e.bytes) || !isCount(e.segments) || typeof e.sha256 !== 'string') return null;
  if (e.utterances === 0 || e.bytes > decoded.bytes || e.segments > decoded.segments.length || e.utterances > decoded.utterances) return null;
  return { utterances: e.utterances, bytes: e.bytes, sha256: e.sha256, complete: false, segments: decoded.segments.slice(0, e.segments) };
}

/**
 * What the live pass decoded of a recording, when it is what decoding `pcm` here would give for those
 * utterances, else null. `pcm` is the audio the final pass decodes: the recording's stored audio, followed by
 * the next parts' when they continue it (join-contiguous-parts.ts). The embedded engine's transcribe() is the
 * same VAD and decoder path fed the same samples (its output does not depend on how the audio was split into
 * writes; live-equivalence.test.ts), so equality of engine fingerprint, vocabulary and the bytes that
 * determined the decoded utterances makes them equal. A live pass that failed, or never finished an
 * utterance, left nothing and all is decoded.
 */
export async function reuseLiveResult(
  app: Pick<AppContext, 'services' | 'log'>,
  rec: { blobKey: string; pcm: Buffer },
  bias: SpeechBias | undefined,
): Promise<DecodedPrefix | null> {
  const fingerprint = await engineFingerprint(getSpeechEngine(app));
  if (!fingerprint) return null;
  let live: LiveResult;
  try {
    const raw = await getBlobStore(app).read(liveResultKey(rec.blobKey));
    if (!raw.length) return null;
    live = JSON.parse(raw.toString('utf8')) as LiveResult;
  } catch {
    return null;
  }
  if (live.v !== 2 || live.engine !== fingerprint || live.bias !== biasDigest(bias)) return null;
  let { decoded } = live;
  if (!decoded || !Number.isSafeInteger(decoded.bytes) || decoded.bytes > rec.pcm.length || !Array.isArray(decoded.segments)) return null;
  // A finished pass is the whole result of exactly its audio; longer audio keeps only what its audio ended.
  if (decoded.complete && decoded.bytes < rec.pcm.length) {
    const prefix = prefixEndedByAudio(decoded);
    if (!prefix) return null;
    decoded = prefix;
  }
  if (decoded.sha256 !== crypto.createHash('sha256').update(rec.pcm.subarray(0, decoded.bytes)).digest('hex')) return null;
  return decoded;
}
