import crypto from 'node:crypto';
import { and, eq, max, sql } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import type { AppContext } from '../context';
import { tenantDb, type Scoped } from '../db/index';
import { ambientSessions, recordings, transcriptEntries } from '../db/schema';
import { getBlobStore, recordingBlobKey } from '../blob/index';
import { bytesToMs } from '@/lib/contracts/stream-protocol';

export interface OpenedRecording {
  id: string;
  sequenceNumber: number;
  blobKey: string;
  /** Where this recording starts on the session's audio timeline. */
  sessionOffsetMs: number;
  /** The next free position for live transcript entries of the session. */
  nextLivePosition: number;
}

/**
 * Starts the next recording of a session. Its place on the timeline is the audio actually stored by the
 * earlier recordings (the blob sizes, which survive a crash that the durable_bytes column may not), and
 * the earlier rows are corrected to match.
 *
 * The recording is inserted in a transaction that holds the session row's lock and checks there that the
 * session still takes audio (created or ready). Across processes this orders the openings of one session
 * (the newest sequence number is the live stream; an older one stops at its next check) and orders each
 * against a status change: an end or a finalisation either commits first, and the stream is refused with
 * 409, or waits until the recording exists and then ends its stream (issue 26 item 5).
 */
export async function openRecording(app: AppContext, auth: Scoped, sessionId: string, startTime?: string): Promise<OpenedRecording> {
  const blob = getBlobStore(app);
  const tdb = tenantDb(app, auth);
  const prior = await tdb.list(recordings, { where: eq(recordings.sessionId, sessionId), orderBy: recordings.sequenceNumber });
  let bytes = 0;
  for (const r of prior) {
    const size = await blob.size(r.blobKey);
    const whole = size - (size % 2);
    if (whole !== r.durableBytes) await tdb.update(recordings, { durableBytes: whole }, eq(recordings.id, r.id));
    bytes += whole;
  }
  const id = crypto.randomUUID();
  const sessionOffsetMs = bytesToMs(bytes);
  const { sequenceNumber, blobKey } = await tdb.transaction(async (tx) => {
    const session = await tx.find(ambientSessions, eq(ambientSessions.id, sessionId), { forUpdate: true });
    if (!session) throw notFound(`session ${sessionId} not found`);
    if (session.status !== 'created' && session.status !== 'ready') throw conflict(`session is ${session.status}; it accepts no more audio`);
    const [last] = await tx.select(recordings, { max: max(recordings.sequenceNumber) }, eq(recordings.sessionId, sessionId));
    const seq = (last?.max ?? 0) + 1;
    const key = recordingBlobKey(sessionId, seq, id);
    await tx.insert(recordings, {
      id,
      sessionId,
      sequenceNumber: seq,
      blobKey: key,
      sessionOffsetMs,
      ...(startTime ? { startTime: sql`${startTime}::timestamptz` as unknown as Date } : {}),
    });
    return { sequenceNumber: seq, blobKey: key };
  });
  const pos = await tdb.select(transcriptEntries, { max: sql<number | null>`max(${transcriptEntries.position})` }, and(eq(transcriptEntries.sessionId, sessionId), eq(transcriptEntries.source, 'live')));
  return { id, sequenceNumber, blobKey, sessionOffsetMs, nextLivePosition: Number(pos[0]?.max ?? -1) + 1 };
}
