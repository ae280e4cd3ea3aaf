import { asc, eq } from 'drizzle-orm';
import type { RecordingListResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { recordings } from '../../db/schema';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { getOwnedSession } from './get-owned-session';
import { recordingAudioUrl, recordingUrlKey } from './recording-url';

/** The session's recordings with signed, expiring audio URLs this service serves. */
export async function listRecordings(app: AppContext, auth: ServicePrincipal, sessionId: string, download: boolean): Promise<RecordingListResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  const rows = await tenantDb(app, auth)
    .select(recordings, { id: recordings.id, sequenceNumber: recordings.sequenceNumber }, eq(recordings.sessionId, session.id))
    .orderBy(asc(recordings.sequenceNumber));
  const key = recordingUrlKey(app);
  return {
    recordings: rows.map((r) => {
      const { url, expiresAt } = recordingAudioUrl(app.config.publicBaseUrl, key, r.id, download);
      return { recording_id: r.id, presigned_url: url, expires_at: expiresAt, sequence_number: r.sequenceNumber };
    }),
    is_streamable: session.status === 'ready',
  };
}
