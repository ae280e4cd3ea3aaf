import { blobSettingsFromEnv, type BlobSettings } from '../config';
import { FsBlobStore } from './fs-store';
import { S3BlobStore } from './s3-store';
import type { BlobStore } from './types';

export type { BlobStore, ByteRange } from './types';
export { FsBlobStore } from './fs-store';
export { S3BlobStore } from './s3-store';

/** S3-compatible storage when all four S3 settings are given (Config.blob), else files under audioDir. */
export function openBlobStore(settings: BlobSettings): BlobStore {
  const { endpoint, bucket, accessKeyId, secretAccessKey, region, prefix, forcePathStyle } = settings.s3;
  const given = [endpoint, bucket, accessKeyId, secretAccessKey].filter(Boolean).length;
  if (given === 4) return new S3BlobStore({ endpoint: endpoint!, bucket: bucket!, accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey!, region, prefix, forcePathStyle });
  if (given > 0) throw new Error('S3 storage needs all of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  return new FsBlobStore(settings.audioDir);
}

/** The same from an environment the caller passes (scripts and tests, which have no Config). */
export function createBlobStore(dataDir: string, env: Record<string, string | undefined>): BlobStore {
  return openBlobStore(blobSettingsFromEnv(dataDir, env));
}

/** The process's blob store, opened on first use (server/services.ts). */
export function getBlobStore(app: { services: { blob: { get(): BlobStore } } }): BlobStore {
  return app.services.blob.get();
}

/** Where a recording's raw PCM lives. */
export function recordingBlobKey(sessionId: string, sequenceNumber: number, recordingId: string): string {
  return `sessions/${sessionId}/${String(sequenceNumber).padStart(4, '0')}-${recordingId}.pcm`;
}
