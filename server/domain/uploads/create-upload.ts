import crypto from 'node:crypto';
import { apiError, conflict } from '@/lib/errors';
import { UPLOAD_MEDIA_TYPES, type CreateUploadRequest, type UploadFormat, type UploadStatus } from '@/lib/contracts/uploads';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { getOwnedSession } from '../sessions/get-owned-session';
import { uploadStatus, writeUploadMeta, type UploadMeta } from './upload-blobs';

const BY_EXTENSION: Record<string, UploadFormat> = { wav: 'wav', mp3: 'mp3', m4a: 'm4a', mp4: 'm4a', aac: 'aac', webm: 'webm', ogg: 'ogg', opus: 'ogg', flac: 'flac' };

/** The format a declared media type (or, for a generic one, the file name) announces; null when neither is accepted. */
function declaredFormat(contentType: string, filename?: string): UploadFormat | null {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (UPLOAD_MEDIA_TYPES[type]) return UPLOAD_MEDIA_TYPES[type];
  const ext = filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if ((type === '' || type === 'application/octet-stream') && ext && BY_EXTENSION[ext]) return BY_EXTENSION[ext];
  return null;
}

/** Starts an upload for a session that still takes audio (created or ready). */
export async function createUpload(app: AppContext, auth: ServicePrincipal, sessionId: string, body: CreateUploadRequest): Promise<UploadStatus> {
  const session = await getOwnedSession(app, auth, sessionId);
  if (session.status !== 'created' && session.status !== 'ready') throw conflict(`session is ${session.status}; it accepts no more audio`);
  const declared = declaredFormat(body.content_type, body.filename);
  if (!declared) {
    throw apiError('unsupported_media_type', `content_type: ${body.content_type || '(empty)'} is not an accepted audio type; send WAV, MP3, M4A/AAC, WebM/Opus, Ogg/Opus or FLAC`);
  }
  const meta: UploadMeta = {
    upload_id: crypto.randomUUID(),
    ambient_session_id: sessionId,
    size: body.size,
    declared,
    ...(body.filename ? { filename: body.filename } : {}),
    created_at: new Date().toISOString(),
  };
  await writeUploadMeta(app, meta);
  return uploadStatus(app, meta, 0, null);
}
