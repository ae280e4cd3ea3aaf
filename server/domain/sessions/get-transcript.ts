import { and, asc, eq, sql } from 'drizzle-orm';
import type { Speaker, TranscriptEntry, TranscriptResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { recordings, transcriptEntries } from '../../db/schema';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { getOwnedSession } from './get-owned-session';
import { msToDuration, wallClock } from './time';
import { loadRecordingGaps } from './load-recording-gaps';
import type { TranscriptWord } from '@/lib/transcript/confidence';

const SPEAKERS = new Set<Speaker>(['CLINICIAN', 'PATIENT', 'UNKNOWN']);

/**
 * The finalisation pass's transcript once it exists, else the live recogniser's final segments so far.
 * Offsets are on the session's audio timeline; wall-clock times are the recording's START_TIME plus the
 * entry's position within that recording. Those offsets run on across a stretch no recording holds, so the
 * stretches are listed beside the entries (recording_gaps).
 */
export async function getTranscript(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<TranscriptResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  const rows = await tenantDb(app, auth)
    .select(transcriptEntries, {
      id: transcriptEntries.id,
      source: transcriptEntries.source,
      recordingId: transcriptEntries.recordingId,
      langId: transcriptEntries.langId,
      text: transcriptEntries.text,
      speaker: transcriptEntries.speaker,
      startOffsetMs: transcriptEntries.startOffsetMs,
      endOffsetMs: transcriptEntries.endOffsetMs,
      confidence: transcriptEntries.confidence,
      words: transcriptEntries.words,
      unbiased: transcriptEntries.unbiased,
      sessionOffsetMs: recordings.sessionOffsetMs,
      // Microseconds as text: a JS Date would drop the sub-millisecond part of START_TIME.
      startMicros: sql<string>`(extract(epoch from coalesce(${recordings.startTime}, ${recordings.createdAt})) * 1000000)::bigint::text`,
    }, and(eq(transcriptEntries.sessionId, session.id)))
    .innerJoin(recordings, eq(recordings.id, transcriptEntries.recordingId))
    .orderBy(asc(transcriptEntries.position));
  const hasFinal = rows.some((r) => r.source === 'final');
  const chosen = rows.filter((r) => r.source === (hasFinal ? 'final' : 'live'));
  const final_transcript: TranscriptEntry[] = chosen.map((r) => {
    const start = BigInt(r.startMicros);
    return {
      transcript_id: r.id,
      recording_id: r.recordingId,
      lang_id: r.langId,
      transcript: r.text,
      start_time: wallClock(start, r.startOffsetMs - r.sessionOffsetMs),
      end_time: wallClock(start, r.endOffsetMs - r.sessionOffsetMs),
      start_offset: msToDuration(r.startOffsetMs),
      end_offset: msToDuration(r.endOffsetMs),
      speaker: SPEAKERS.has(r.speaker as Speaker) ? (r.speaker as Speaker) : 'UNKNOWN',
      // real is single precision: 0.808 comes back as 0.80800003.
      ...(r.confidence !== null ? { confidence: Math.round(r.confidence * 1000) / 1000 } : {}),
      ...(Array.isArray(r.words)
        ? {
            words: (r.words as TranscriptWord[]).map((w) => ({
              text: w.text,
              start_offset: msToDuration(w.startMs),
              end_offset: msToDuration(w.endMs),
              confidence: w.confidence,
            })),
          }
        : {}),
      ...(r.unbiased ? { unbiased: true as const } : {}),
    };
  });
  return { final_transcript, recording_gaps: await loadRecordingGaps(tenantDb(app, auth), session.id) };
}
