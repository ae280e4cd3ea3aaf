import { asc, eq } from 'drizzle-orm';
import type { RecordingListResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { recordings } from '../../db/schema';
import { getBlobStore } from '../../blob/index';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { holdsOwnAudio, readPartContent } from '../../recordings/part-content';
import { getOwnedSession } from './get-owned-session';
import { recordingAudioUrl, recordingUrlKey } from './recording-url';

/**
 * The session's recordings with signed, expiring audio URLs this service serves. A part with no audio of its own
 * (none, or only a reconnect's 1 ms probe of audio an earlier part holds) is left out: there is nothing in it to
 * play, and a browser trial's visit page read it as one part more ("Part 1 of 4" for three). It stays stored. While
 * the session captures, its last part is listed whatever it holds so far: audio may be arriving in it.
 */
export async function listRecordings(app: AppContext, auth: ServicePrincipal, sessionId: string, download: boolean): Promise<RecordingListResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  const rows = await tenantDb(app, auth)
    .select(
      recordings,
      { id: recordings.id, sequenceNumber: recordings.sequenceNumber, blobKey: recordings.blobKey, startTime: recordings.startTime, startReason: recordings.startReason, durableBytes: recordings.durableBytes },
      eq(recordings.sessionId, session.id),
    )
    .orderBy(asc(recordings.sequenceNumber));
  const content = await readPartContent(getBlobStore(app), rows.map((r) => ({ ...r, startTimeMs: r.startTime?.getTime() ?? null })));
  const capturing = session.status === 'ready';
  const key = recordingUrlKey(app);
  return {
    recordings: rows
      .filter((_, i) => holdsOwnAudio(content[i]!) || (capturing && i === rows.length - 1))
      .map((r) => {
        const { url, expiresAt } = recordingAudioUrl(app.config.publicBaseUrl, key, r.id, download);
        return { recording_id: r.id, presigned_url: url, expires_at: expiresAt, sequence_number: r.sequenceNumber };
      }),
    is_streamable: capturing,
  };
}
