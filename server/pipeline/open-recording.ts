import crypto from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { recordings, transcriptEntries } from '../db/schema';
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
 */
export async function openRecording(app: AppContext, sessionId: string, startTime?: string): Promise<OpenedRecording> {
  const blob = getBlobStore(app);
  for (let attempt = 0; ; attempt++) {
    const prior = await app.db
      .select({ id: recordings.id, seq: recordings.sequenceNumber, key: recordings.blobKey, durable: recordings.durableBytes })
      .from(recordings)
      .where(eq(recordings.sessionId, sessionId))
      .orderBy(asc(recordings.sequenceNumber));
    let bytes = 0;
    for (const r of prior) {
      const size = await blob.size(r.key);
      const whole = size - (size % 2);
      if (whole !== r.durable) await app.db.update(recordings).set({ durableBytes: whole }).where(eq(recordings.id, r.id));
      bytes += whole;
    }
    const sequenceNumber = (prior.at(-1)?.seq ?? 0) + 1;
    const id = crypto.randomUUID();
    const blobKey = recordingBlobKey(sessionId, sequenceNumber, id);
    const sessionOffsetMs = bytesToMs(bytes);
    try {
      await app.db.insert(recordings).values({
        id,
        sessionId,
        sequenceNumber,
        blobKey,
        sessionOffsetMs,
        ...(startTime ? { startTime: sql`${startTime}::timestamptz` as unknown as Date } : {}),
      });
    } catch (err) {
      // Another process opened a recording for this session at the same moment; take the next number.
      if (attempt < 3 && /recordings_session_seq_idx|duplicate key/.test(String((err as Error).message) + String((err as { cause?: Error }).cause?.message))) continue;
      throw err;
    }
    const pos = await app.db
      .select({ max: sql<number | null>`max(${transcriptEntries.position})` })
      .from(transcriptEntries)
      .where(and(eq(transcriptEntries.sessionId, sessionId), eq(transcriptEntries.source, 'live')));
    return { id, sequenceNumber, blobKey, sessionOffsetMs, nextLivePosition: Number(pos[0]?.max ?? -1) + 1 };
  }
}
