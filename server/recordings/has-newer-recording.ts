import { and, eq, gt } from 'drizzle-orm';
import type { AppContext } from '../context';
import { recordings } from '../db/schema';
import { systemDb } from '../db/index';

const SYSTEM = 'recordings: a stream or upload whose session was found in its caller\'s scope when it opened';

/**
 * True when the session has a recording later than this one: a newer stream for it was opened, possibly
 * by another web process, whose hub cannot reach this stream (open-recording.ts orders
 * the openings under the session row's lock).
 */
export async function hasNewerRecording(app: Pick<AppContext, 'db'>, sessionId: string, sequenceNumber: number): Promise<boolean> {
  const rows = await systemDb(app, SYSTEM)
    .select({ id: recordings.id })
    .from(recordings)
    .where(and(eq(recordings.sessionId, sessionId), gt(recordings.sequenceNumber, sequenceNumber)))
    .limit(1);
  return rows.length > 0;
}
