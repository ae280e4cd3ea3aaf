import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { recordings } from '../db/schema';

/** Stores when a recording began (an RFC 3339 time already checked by the frame parser), kept to the microsecond. */
export async function setRecordingStartTime(app: Pick<AppContext, 'db'>, recordingId: string, value: string): Promise<void> {
  await app.db
    .update(recordings)
    .set({ startTime: sql`${value}::timestamptz` as unknown as Date })
    .where(eq(recordings.id, recordingId));
}
