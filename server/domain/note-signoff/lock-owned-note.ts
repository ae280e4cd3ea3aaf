import { eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import type { TenantDb } from '../../db';
import { ambientSessions, sessionContent } from '../../db/schema';

/**
 * Inside a transaction (`tenantDb(app, auth).transaction(tx => …)`): the caller's own session and its note
 * row, locked for update. Another provider's or partner's session is 404; a session without a note yet is
 * 409 naming its status.
 */
export async function lockOwnedNote(tx: TenantDb, sessionId: string) {
  const [session] = await tx
    .select(ambientSessions, { id: ambientSessions.id, status: ambientSessions.status, encounterId: ambientSessions.encounterId, partnerId: ambientSessions.partnerId, context: ambientSessions.context }, eq(ambientSessions.id, sessionId))
    .limit(1);
  if (!session) throw notFound('ambient session not found');
  const note = await tx.find(sessionContent, eq(sessionContent.sessionId, sessionId), { forUpdate: true });
  if (!note) throw conflict(`the note has not been generated yet; session status is ${session.status}`);
  return { session, note };
}
