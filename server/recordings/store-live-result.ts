import type { AppContext } from '../context';
import { getBlobStore } from '../blob/index';
import { liveResultKey, type LiveResult } from './live-result';

/**
 * Keeps a finished live pass beside the recording's audio, before the recording is closed and finalisation
 * queued. A failure only costs a second decode: the final pass then transcribes the recording itself.
 */
export async function storeLiveResult(app: Pick<AppContext, 'services' | 'log'>, blobKey: string, result: LiveResult): Promise<void> {
  try {
    await getBlobStore(app).append(liveResultKey(blobKey), Buffer.from(JSON.stringify(result)));
  } catch (err) {
    app.log.warn({ err: (err as Error).message }, 'live result not stored; the final pass will decode the recording again');
  }
}
