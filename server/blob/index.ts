import path from 'node:path';
import type { AppContext } from '../context';
import { FsBlobStore } from './fs-store';
import { S3BlobStore } from './s3-store';
import type { BlobStore } from './types';

export type { BlobStore, ByteRange } from './types';
export { FsBlobStore } from './fs-store';
export { S3BlobStore } from './s3-store';

const SERVICE = 'blob.store';

/** S3-compatible storage when all four S3 variables are set, else files under DATA_DIR/audio. */
export function createBlobStore(dataDir: string, env: Record<string, string | undefined> = process.env): BlobStore {
  const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env;
  const given = [S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY].filter(Boolean).length;
  if (given === 4) {
    return new S3BlobStore({
      endpoint: S3_ENDPOINT!,
      bucket: S3_BUCKET!,
      accessKeyId: S3_ACCESS_KEY_ID!,
      secretAccessKey: S3_SECRET_ACCESS_KEY!,
      region: env.S3_REGION || undefined,
      prefix: env.S3_PREFIX || undefined,
      forcePathStyle: env.S3_FORCE_PATH_STYLE ? !['0', 'false', 'no'].includes(env.S3_FORCE_PATH_STYLE.toLowerCase()) : undefined,
    });
  }
  if (given > 0) throw new Error('S3 storage needs all of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  return new FsBlobStore(env.AUDIO_DIR ? path.resolve(env.AUDIO_DIR) : path.join(dataDir, 'audio'));
}

/** The process's one blob store, created on first use (it lives in app.services, see CONTRIBUTING). */
export function getBlobStore(app: Pick<AppContext, 'services' | 'config'>): BlobStore {
  let store = app.services.get(SERVICE) as BlobStore | undefined;
  if (!store) {
    store = createBlobStore(app.config.dataDir);
    app.services.set(SERVICE, store);
  }
  return store;
}

/** Closes the blob store if one was opened (shutdown). */
export async function closeBlobStore(app: Pick<AppContext, 'services'>): Promise<void> {
  const store = app.services.get(SERVICE) as BlobStore | undefined;
  app.services.delete(SERVICE);
  await store?.close();
}

/** Where a recording's raw PCM lives. */
export function recordingBlobKey(sessionId: string, sequenceNumber: number, recordingId: string): string {
  return `sessions/${sessionId}/${String(sequenceNumber).padStart(4, '0')}-${recordingId}.pcm`;
}
