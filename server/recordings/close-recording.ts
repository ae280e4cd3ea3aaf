import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { ambientSessions, recordings } from '../db/schema';
import { bytesToMs } from '@/lib/contracts/stream-protocol';
import { systemDb } from '../db/index';

const SYSTEM = 'recordings: a stream or upload whose session was found in its caller\'s scope when it opened';

/**
 * Marks a recording finished with the bytes known durable and how far the live recogniser got (null when
 * it failed or never ran to the end), and sets the session's total audio length.
 */
export async function closeRecording(
  app: AppContext,
  rec: { id: string; sessionId: string; sessionOffsetMs: number },
  durableBytes: number,
  liveTranscriptMs: number | null,
): Promise<void> {
  await systemDb(app, SYSTEM).update(recordings).set({ durableBytes, liveTranscriptMs, endedAt: new Date() }).where(eq(recordings.id, rec.id));
  await systemDb(app, SYSTEM)
    .update(ambientSessions)
    .set({ audioMs: sql`greatest(${ambientSessions.audioMs}, ${rec.sessionOffsetMs + bytesToMs(durableBytes)})` })
    .where(eq(ambientSessions.id, rec.sessionId));
}
