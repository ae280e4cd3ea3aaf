import { eq, sql } from 'drizzle-orm';
import type { PartStartReason } from '@/lib/contracts/stream-protocol';
import type { AppContext } from '../context';
import { recordings } from '../db/schema';
import { systemDb } from '../db/index';

const SYSTEM = 'recordings: a stream or upload whose session was found in its caller\'s scope when it opened';

/**
 * Stores when a recording began (an RFC 3339 time already checked by the frame parser), kept to the microsecond,
 * and why it began after a stretch nothing recorded (START_TIME's reason, checked by the parser too), if given.
 */
export async function setRecordingStartTime(app: Pick<AppContext, 'db'>, recordingId: string, value: string, reason: PartStartReason | null = null): Promise<void> {
  await systemDb(app, SYSTEM)
    .update(recordings)
    .set({ startTime: sql`${value}::timestamptz` as unknown as Date, startReason: reason })
    .where(eq(recordings.id, recordingId));
}
