import { asc, eq } from 'drizzle-orm';
import { bytesToMs } from '@/lib/contracts/stream-protocol';
import type { AppContext } from '../context';
import { ambientSessions, recordings } from '../db/schema';
import { getBlobStore } from '../blob/index';
import { systemDb } from '../db/index';

const SYSTEM = 'finalisation worker: one session of any tenant, by id';

/** Stored audio that was acknowledged to the client cannot be read: a note from the rest would be silently incomplete. */
export class AudioUnavailableError extends Error {}

export interface RecordingAudio {
  id: string;
  sequenceNumber: number;
  blobKey: string;
  /** Offset on the session timeline, from the audio actually stored. */
  offsetMs: number;
  storedOffsetMs: number;
  /** START_TIME (wall clock of the first sample) in ms since the epoch; null when the part never had one. */
  startTimeMs: number | null;
  /** Why the recorder began this part after a stretch nothing recorded (START_TIME's reason), if it said. */
  startReason: string | null;
  pcm: Buffer;
}

/**
 * A session's stored audio, recording by recording in sequence. Bytes acknowledged to the client that
 * storage no longer has fail with AudioUnavailableError; a recording holding more than its durable count (a
 * crash before the count was written) has the count raised to what is stored.
 */
export async function loadAudio(app: AppContext, sessionId: string): Promise<RecordingAudio[]> {
  const blob = getBlobStore(app);
  const rows = await systemDb(app, SYSTEM).select().from(recordings).where(eq(recordings.sessionId, sessionId)).orderBy(asc(recordings.sequenceNumber));
  const out: RecordingAudio[] = [];
  let offsetBytes = 0;
  for (const r of rows) {
    let pcm: Buffer;
    try {
      const size = await blob.size(r.blobKey);
      pcm = await blob.read(r.blobKey, { start: 0, end: size - (size % 2) });
    } catch (err) {
      throw new AudioUnavailableError(`recording ${r.sequenceNumber} could not be read: ${(err as Error).message}`);
    }
    // Bytes that were acknowledged to the client are missing: storage lost audio, and a note from the rest would be silently incomplete.
    if (pcm.length < r.durableBytes) {
      throw new AudioUnavailableError(`recording ${r.sequenceNumber} has ${pcm.length} of its ${r.durableBytes} stored bytes`);
    }
    if (pcm.length !== r.durableBytes) await systemDb(app, SYSTEM).update(recordings).set({ durableBytes: pcm.length }).where(eq(recordings.id, r.id));
    out.push({ id: r.id, sequenceNumber: r.sequenceNumber, blobKey: r.blobKey, offsetMs: bytesToMs(offsetBytes), storedOffsetMs: r.sessionOffsetMs, startTimeMs: r.startTime?.getTime() ?? null, startReason: r.startReason, pcm });
    offsetBytes += pcm.length;
  }
  return out;
}

/** Places each recording on the session timeline by the audio it actually holds, and sets the session's audio length. */
export async function settleTimeline(app: AppContext, sessionId: string, recs: RecordingAudio[]): Promise<number> {
  const totalMs = recs.reduce((a, r) => a + bytesToMs(r.pcm.length), 0);
  for (const r of recs) {
    if (r.offsetMs !== r.storedOffsetMs) await systemDb(app, SYSTEM).update(recordings).set({ sessionOffsetMs: r.offsetMs }).where(eq(recordings.id, r.id));
  }
  await systemDb(app, SYSTEM).update(ambientSessions).set({ audioMs: totalMs }).where(eq(ambientSessions.id, sessionId));
  return totalMs;
}
