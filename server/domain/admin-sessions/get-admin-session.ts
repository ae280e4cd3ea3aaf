import { asc, desc, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AdminSessionDetail } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { ambientSessions, providers, recordings, sessionContent, sessionTransitions, transcriptEntries, webhookDeliveries } from '../../db/schema';
import { recordingAudioUrl, recordingUrlKey } from '../sessions/recording-url';
import { deliveryDto } from '../webhooks/delivery-dto';
import { adminSessionDto } from './admin-session-dto';

/** Everything about one session for support: history, audio, transcript, note, data and its webhooks. */
export async function getAdminSession(app: AppContext, sessionId: string, admin: AdminPrincipal): Promise<AdminSessionDetail> {
  const tdb = tenantDb(app, admin);
  const rows = await tdb.select(ambientSessions, { s: ambientSessions, name: providers.name, email: providers.email }, eq(ambientSessions.id, sessionId))
    .innerJoin(providers, eq(providers.id, ambientSessions.providerId))
    .limit(1);
  const row = rows[0];
  if (!row) throw notFound(`session ${sessionId} not found`);
  const s = row.s;
  const [transitions, recs, transcript, content, deliveries] = await Promise.all([
    tdb.list(sessionTransitions, { where: eq(sessionTransitions.sessionId, sessionId), orderBy: [asc(sessionTransitions.at), asc(sessionTransitions.id)] }),
    tdb.list(recordings, { where: eq(recordings.sessionId, sessionId), orderBy: asc(recordings.sequenceNumber) }),
    tdb.list(transcriptEntries, { where: eq(transcriptEntries.sessionId, sessionId), orderBy: [asc(transcriptEntries.source), asc(transcriptEntries.position)] }),
    tdb.list(sessionContent, { where: eq(sessionContent.sessionId, sessionId), limit: 1 }),
    tdb.list(webhookDeliveries, { where: eq(webhookDeliveries.sessionId, sessionId), orderBy: desc(webhookDeliveries.createdAt) }),
  ]);
  const key = recordingUrlKey(app);
  return {
    session: {
      ...adminSessionDto(s, row),
      error_detail: s.errorDetail,
      started_at: s.startedAt?.toISOString() ?? null,
      context: s.context ?? null,
    },
    transitions: transitions.map((t) => ({ from_status: t.fromStatus, to_status: t.toStatus, reason: t.reason, at: t.at.toISOString() })),
    recordings: recs.map((r) => {
      // Relative, so the console's player loads it from the origin it was served from.
      const { url, expiresAt } = recordingAudioUrl('', key, r.id, false);
      return {
        recording_id: r.id,
        sequence_number: r.sequenceNumber,
        start_time: r.startTime?.toISOString() ?? null,
        ended_at: r.endedAt?.toISOString() ?? null,
        durable_bytes: r.durableBytes,
        audio_url: url,
        expires_at: expiresAt,
      };
    }),
    transcript: transcript.map((t) => ({
      transcript_id: t.id,
      recording_id: t.recordingId,
      source: t.source,
      speaker: t.speaker,
      text: t.text,
      start_offset_ms: t.startOffsetMs,
      end_offset_ms: t.endOffsetMs,
    })),
    content: content[0]
      ? { summary: content[0].summary, structured_data: content[0].structuredData, engine: content[0].engine, updated_at: content[0].updatedAt.toISOString() }
      : null,
    webhook_deliveries: deliveries.map(deliveryDto),
  };
}
