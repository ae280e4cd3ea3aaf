import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { Db } from '../../db/client';
import { ambientSessions } from '../../db/schema';
import type { ServicePrincipal } from '../../auth/authenticate-service';

/**
 * The status of the caller's session, or 404. Clients poll this many times a minute per session, so it
 * reads the one column rather than the whole row with its context document.
 */
export async function getOwnedSessionStatus(app: { db: Db }, auth: Pick<ServicePrincipal, 'providerId' | 'partnerId'>, sessionId: string): Promise<string> {
  const row = (
    await app.db
      .select({ status: ambientSessions.status })
      .from(ambientSessions)
      .where(and(eq(ambientSessions.id, sessionId), eq(ambientSessions.providerId, auth.providerId), eq(ambientSessions.partnerId, auth.partnerId)))
      .limit(1)
  )[0];
  if (!row) throw notFound(`ambient session ${sessionId} not found`);
  return row.status;
}
