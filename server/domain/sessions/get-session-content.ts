import { and, eq } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import { ABANDONED_REASON, isTerminal } from '@/lib/contracts/session-status';
import { emptyStructuredData, storedStructuredData, type ContentResponse, type SummarySection } from '@/lib/contracts/sessions';
import type { NoteStatus } from '@/lib/contracts/note-status';
import type { AppContext } from '../../context';
import { tenantDb, type TenantDb } from '../../db';
import { sessionContent, sessionTransitions, transcriptEntries } from '../../db/schema';
import { attachEvidence } from './attach-evidence';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { getOwnedSession } from './get-owned-session';

/**
 * Stored content of a session, or the empty note when none was generated (skipped, failed, aborted), with the
 * evidence of each sentence, diagnosis and order.
 */
export async function readStoredContent(tdb: TenantDb, sessionId: string): Promise<ContentResponse> {
  const row = await tdb.find(sessionContent, eq(sessionContent.sessionId, sessionId));
  if (!row) return { summary: [], structured_data: emptyStructuredData() };
  const entries = await tdb.select(
    transcriptEntries,
    { id: transcriptEntries.id, startMs: transcriptEntries.startOffsetMs, endMs: transcriptEntries.endOffsetMs },
    eq(transcriptEntries.sessionId, sessionId),
  );
  return attachEvidence({
    summary: (Array.isArray(row.summary) ? row.summary : []) as SummarySection[],
    structured_data: storedStructuredData(row.structuredData),
  }, entries);
}

/** Content of one session; 409 naming the status until the session has reached a terminal state. */
export async function getSessionContent(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<ContentResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  if (!isTerminal(session.status)) {
    throw conflict(`session is ${session.status}; content is available once it is completed (poll GET /api/v1/ambient/session/${session.id}/status)`);
  }
  const tdb = tenantDb(app, auth);
  const content = await readStoredContent(tdb, session.id);
  const row = await tdb.find(sessionContent, eq(sessionContent.sessionId, session.id));
  const abandoned = await tdb.find(sessionTransitions, and(eq(sessionTransitions.sessionId, session.id), eq(sessionTransitions.reason, ABANDONED_REASON)));
  return {
    ...content,
    note_status: (row?.noteStatus ?? 'draft') as NoteStatus,
    signed_at: row?.signedAt?.toISOString() ?? null,
    ...(abandoned ? { ended_reason: 'abandoned' as const } : {}),
  };
}
