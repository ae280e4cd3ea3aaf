import crypto from 'node:crypto';
import type { AppContext } from '../context';
import { getBlobStore } from '../blob/index';
import type { DecodedPrefix, SpeechBias } from '../engines/speech/types';
import { getSpeechEngine } from '../engines/index';
import { engineFingerprint } from './engine-fingerprint';
import { biasDigest, liveResultKey, type LiveResult } from './live-result';

/**
 * What the live pass decoded of a recording, when it is what decoding the stored audio here would give for
 * those utterances, else null. The embedded engine's transcribe() is the same VAD and decoder path fed the
 * same samples (its output does not depend on how the audio was split into writes; live-equivalence.test.ts),
 * so equality of engine fingerprint, vocabulary and the bytes that determined the decoded utterances makes
 * them equal. A live pass that failed, or never finished an utterance, left nothing and all is decoded.
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
  const { decoded } = live;
  if (!decoded || !Number.isSafeInteger(decoded.bytes) || decoded.bytes > rec.pcm.length || !Array.isArray(decoded.segments)) return null;
  if (decoded.sha256 !== crypto.createHash('sha256').update(rec.pcm.subarray(0, decoded.bytes)).digest('hex')) return null;
  return decoded;
}
