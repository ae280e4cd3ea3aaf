import type { UploadStatus } from '@/lib/contracts/uploads';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { getBlobStore } from '../../blob/index';
import { getOwnedSession } from '../sessions/get-owned-session';
import { readUploadMeta, readUploadOutcome, uploadDataKey, uploadStatus } from './upload-blobs';

/** Where an upload stands: the offset to resume from while receiving, or its outcome. Another tenant's is 404. */
export async function getUpload(app: AppContext, auth: ServicePrincipal, sessionId: string, uploadId: string): Promise<UploadStatus> {
  await getOwnedSession(app, auth, sessionId);
  const meta = await readUploadMeta(app, sessionId, uploadId);
  const outcome = await readUploadOutcome(app, sessionId, uploadId);
  // A completed upload's bytes are removed (the recording holds its audio): it reports the whole size.
  const offset = outcome?.state === 'complete' ? meta.size : await getBlobStore(app).size(uploadDataKey(sessionId, uploadId));
  return uploadStatus(app, meta, offset, outcome);
}
