import { eq, sql } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { SessionStatus } from '@/lib/contracts/session-status';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { ambientSessions } from '../../db/schema';
import type { Scoped } from '../scope/scope';
import { inScope } from '../scope/in-scope';
import { getStatusCache } from '../../status/status-cache';

/**
 * The status of the caller's session, or 404. Clients poll this many times a minute per session, so it is
 * answered from the status cache, which the status bus keeps exact; a miss reads the one row and fills it.
 */
export async function getOwnedSessionStatus(
  app: Pick<AppContext, 'db' | 'services' | 'config' | 'database' | 'log'>,
  auth: Scoped,
  sessionId: string,
): Promise<SessionStatus> {
  const cache = getStatusCache(app);
  let entry = cache.get(sessionId);
  if (!entry) {
    const mark = cache.mark();
    const row = (
      await tenantDb(app, auth)
        .select(
          ambientSessions,
          {
            status: ambientSessions.status,
            providerId: ambientSessions.providerId,
            partnerId: ambientSessions.partnerId,
            // Qualified by hand: drizzle renders a column in a select list unqualified, which the subquery would read as t.id.
            seq: sql<string | number | null>`(select max(t.id) from session_transitions t where t.session_id = "ambient_sessions"."id")`,
          },
          eq(ambientSessions.id, sessionId),
        )
        .limit(1)
    )[0];
    if (row) {
      entry = { status: row.status as SessionStatus, providerId: row.providerId, partnerId: row.partnerId, seq: Number(row.seq ?? 0) };
      cache.fill(sessionId, entry, mark);
    }
  }
  // Another provider's or partner's session is indistinguishable from a missing one.
  if (!entry || !inScope(auth.scope, ambientSessions, entry)) throw notFound(`ambient session ${sessionId} not found`);
  return entry.status;
}
