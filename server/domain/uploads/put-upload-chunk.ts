import { badRequest, conflict, isApiError } from '@/lib/errors';
import type { UploadStatus } from '@/lib/contracts/uploads';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { getBlobStore } from '../../blob/index';
import { getOwnedSession } from '../sessions/get-owned-session';
import { ingestUploadedAudio } from './ingest-uploaded-audio';
import { appendUploadOutcome, readUploadMeta, readUploadOutcome, uploadDataKey, uploadStatus, withUploadLock } from './upload-blobs';

/**
 * Appends one chunk at the offset the upload stands at (anything else is 409, so a retried or duplicated
 * chunk is never stored twice). The chunk that completes the file decodes it into the session's audio; a
 * PUT at the full size with an empty body retries that step after an interruption.
 */
export async function putUploadChunk(app: AppContext, auth: ServicePrincipal, sessionId: string, uploadId: string, offset: number, chunk: Buffer): Promise<UploadStatus> {
  await getOwnedSession(app, auth, sessionId);
  const meta = await readUploadMeta(app, sessionId, uploadId);
  const blob = getBlobStore(app);
  const key = uploadDataKey(sessionId, uploadId);
  return withUploadLock(uploadId, async () => {
    const outcome = await readUploadOutcome(app, sessionId, uploadId);
    if (outcome?.state === 'complete') throw conflict('upload is complete; it takes no more bytes');
    if (outcome?.state === 'failed') throw conflict(`upload failed (${outcome.error.message}); start a new upload`);
    const current = await blob.size(key);
    if (offset !== current) throw conflict(`offset: the upload holds ${current} bytes; send the chunk from offset ${current}`);
    if (current + chunk.length > meta.size) throw badRequest(`body: the chunk runs past the declared size (${meta.size} bytes) by ${current + chunk.length - meta.size} bytes`);
    if (!chunk.length && current < meta.size) throw badRequest('body: the chunk is empty');
    const received = chunk.length ? await blob.append(key, chunk) : current;
    if (received < meta.size) return uploadStatus(app, meta, received, null);
    try {
      const { recordingId, audioMs } = await ingestUploadedAudio(app, auth, meta);
      const done = { state: 'complete' as const, recording_id: recordingId, audio_ms: audioMs };
      await appendUploadOutcome(app, sessionId, uploadId, done);
      await blob.delete(key).catch((err: Error) => app.log.warn({ sessionId, err: err.message }, 'uploaded file not removed'));
      return uploadStatus(app, meta, meta.size, done);
    } catch (err) {
      // The file itself is at fault: that is final. Anything else (a session that ended meanwhile, a decoder
      // not installed) leaves the bytes in place for a retry.
      if (isApiError(err) && (err.status === 415 || err.status === 422)) {
        await appendUploadOutcome(app, sessionId, uploadId, { state: 'failed', error: { code: err.status, message: err.message } });
      }
      throw err;
    }
  });
}
