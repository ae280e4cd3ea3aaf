import crypto from 'node:crypto';
import type { AppContext } from '../context';
import { getBlobStore } from '../blob/index';
import type { SpeechBias, SpeechSegment } from '../engines/speech/types';
import { getSpeechEngine } from './engines';
import { engineFingerprint } from './engine-fingerprint';
import { biasDigest, liveResultKey, type LiveResult } from './live-result';

/**
 * The live pass's segments for a recording when they are what decoding its stored audio here would give,
 * else null. The embedded engine's transcribe() is the same VAD and decoder path fed the same samples (its
 * output does not depend on how the audio was split into writes; `live-equivalence.test.ts` pins that), so
 * equality of engine fingerprint, bias and bytes makes the two results equal. A live pass that fell behind
 * and was cut off at the end of the stream, failed, or was discarded left no result (the recording's
 * `liveTranscriptMs` is null then) and the recording is decoded whole.
 */
export async function reuseLiveResult(
  app: Pick<AppContext, 'services' | 'log'>,
  rec: { blobKey: string; liveTranscriptMs: number | null; pcm: Buffer },
  bias: SpeechBias | undefined,
): Promise<SpeechSegment[] | null> {
  if (rec.liveTranscriptMs === null) return null;
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
  if (live.v !== 1 || live.engine !== fingerprint || live.bias !== biasDigest(bias) || live.bytes !== rec.pcm.length) return null;
  if (live.sha256 !== crypto.createHash('sha256').update(rec.pcm).digest('hex')) return null;
  return live.segments;
}
