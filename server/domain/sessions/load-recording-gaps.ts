import { eq, sql } from 'drizzle-orm';
import type { RecordingGap } from '@/lib/contracts/sessions';
import { isPartStartReason } from '@/lib/contracts/stream-protocol';
import type { TenantDb } from '../../db';
import { recordings } from '../../db/schema';
import { findRecordingGaps } from './find-recording-gaps';

/** The unrecorded stretches between a session's recording parts; `sessionId` is one the caller already owns. */
export async function loadRecordingGaps(tdb: TenantDb, sessionId: string): Promise<RecordingGap[]> {
  const rows = await tdb.select(
    recordings,
    {
      sequenceNumber: recordings.sequenceNumber,
      sessionOffsetMs: recordings.sessionOffsetMs,
      durableBytes: recordings.durableBytes,
      startReason: recordings.startReason,
      // Microseconds as text: a JS Date would drop the sub-millisecond part of START_TIME. Null without one.
      startMicros: sql<string | null>`(extract(epoch from ${recordings.startTime}) * 1000000)::bigint::text`,
    },
    eq(recordings.sessionId, sessionId),
  );
  return findRecordingGaps(
    rows.map((r) => ({
      ...r,
      startMicros: r.startMicros === null ? null : BigInt(r.startMicros),
      // Stored only after the frame parser checked it; anything else (a hand-edited row) counts as not given.
      startReason: isPartStartReason(r.startReason) ? r.startReason : null,
    })),
  );
}
