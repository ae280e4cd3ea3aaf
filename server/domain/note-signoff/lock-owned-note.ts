import { and, eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { Db } from '../../db';
import { tenantDb } from '../../db';
import { ambientSessions, sessionContent } from '../../db/schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Inside a transaction: the caller's own session and its note row, locked for update. Another
 * provider's or partner's session is 404; a session without a note yet is 409 naming its status.
 */
export async function lockOwnedNote(tx: Tx, auth: ServicePrincipal, sessionId: string) {
  const [session] = await tenantDb({ db: tx }, auth).select(ambientSessions, { id: ambientSessions.id, status: ambientSessions.status, encounterId: ambientSessions.encounterId, partnerId: ambientSessions.partnerId, context: ambientSessions.context }, eq(ambientSessions.id, sessionId))
    .limit(1);
  if (!session) throw notFound('ambient session not found');
  const [note] = await tx.select().from(sessionContent).where(eq(sessionContent.sessionId, sessionId)).for('update').limit(1);
  if (!note) throw conflict(`the note has not been generated yet; session status is ${session.status}`);
  return { session, note };
}
