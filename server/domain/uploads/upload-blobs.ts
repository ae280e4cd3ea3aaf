import { notFound } from '@/lib/errors';
import type { UploadFormat, UploadStatus } from '@/lib/contracts/uploads';
import type { AppContext } from '../../context';
import { getBlobStore } from '../../blob/index';

/**
 * An upload lives in the blob store beside the recordings, in three append-only blobs under the session:
 * its description (written once at creation), its bytes, and its outcome. The store's appends are durable
 * (fsync, or a completed PUT on S3), so an upload survives a restart and resumes from the bytes kept.
 */
export interface UploadMeta {
  upload_id: string;
  ambient_session_id: string;
  size: number;
  declared: UploadFormat;
  filename?: string;
  created_at: string;
}

export type UploadOutcome =
  | { state: 'complete'; recording_id: string; audio_ms: number }
  | { state: 'failed'; error: { code: number; message: string } };

const base = (sessionId: string, uploadId: string) => `uploads/${sessionId}/${uploadId}`;
export const uploadDataKey = (sessionId: string, uploadId: string) => `${base(sessionId, uploadId)}.bin`;
const metaKey = (sessionId: string, uploadId: string) => `${base(sessionId, uploadId)}.meta.json`;
const outcomeKey = (sessionId: string, uploadId: string) => `${base(sessionId, uploadId)}.outcome.jsonl`;

export async function writeUploadMeta(app: AppContext, meta: UploadMeta): Promise<void> {
  await getBlobStore(app).append(metaKey(meta.ambient_session_id, meta.upload_id), Buffer.from(JSON.stringify(meta)));
}

/** The upload's description; 404 when the session (already checked to be the caller's) has no such upload. */
export async function readUploadMeta(app: AppContext, sessionId: string, uploadId: string): Promise<UploadMeta> {
  const raw = await getBlobStore(app).read(metaKey(sessionId, uploadId));
  if (!raw.length) throw notFound(`upload ${uploadId} not found`);
  return JSON.parse(raw.toString('utf8')) as UploadMeta;
}

export async function appendUploadOutcome(app: AppContext, sessionId: string, uploadId: string, outcome: UploadOutcome): Promise<void> {
  await getBlobStore(app).append(outcomeKey(sessionId, uploadId), Buffer.from(`${JSON.stringify(outcome)}\n`));
}

/** The last outcome written, or null while the upload is still receiving. */
export async function readUploadOutcome(app: AppContext, sessionId: string, uploadId: string): Promise<UploadOutcome | null> {
  const lines = (await getBlobStore(app).read(outcomeKey(sessionId, uploadId))).toString('utf8').split('\n').filter(Boolean);
  const last = lines.at(-1);
  return last ? (JSON.parse(last) as UploadOutcome) : null;
}

export function uploadStatus(app: AppContext, meta: UploadMeta, offset: number, outcome: UploadOutcome | null): UploadStatus {
  return {
    upload_id: meta.upload_id,
    ambient_session_id: meta.ambient_session_id,
    offset,
    size: meta.size,
    max_chunk_bytes: app.config.bodyLimitBytes,
    state: outcome?.state ?? 'receiving',
    ...(outcome?.state === 'complete' ? { recording_id: outcome.recording_id, audio_ms: outcome.audio_ms } : {}),
    ...(outcome?.state === 'failed' ? { error: outcome.error } : {}),
  };
}

const locks = new Map<string, Promise<unknown>>();

/**
 * Runs one chunk's work at a time per upload in this process: two PUTs racing at one offset would both see
 * it free and both append. (Across web processes, one upload's chunks are expected on one connection.)
 */
export function withUploadLock<T>(uploadId: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(uploadId) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(uploadId, tail);
  void tail.then(() => {
    if (locks.get(uploadId) === tail) locks.delete(uploadId);
  });
  return run;
}
