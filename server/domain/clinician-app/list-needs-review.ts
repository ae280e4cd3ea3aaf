import { and, desc, eq } from 'drizzle-orm';
import type { SessionListItem } from '@/lib/contracts/clinician';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { scopeWhere } from '../scope/scope-where';
import type { AppContext } from '../../context';
import { ambientSessions, sessionContent } from '../../db/schema';
import { sessionListColumns, sessionListItem } from './session-list-item';

/** The provider's completed visits whose note is not signed (draft, or amended and not signed again), on any day. */
export async function listNeedsReview(app: AppContext, auth: ServicePrincipal): Promise<SessionListItem[]> {
  const rows = await app.db
    .select(sessionListColumns)
    .from(ambientSessions)
    .innerJoin(sessionContent, eq(sessionContent.sessionId, ambientSessions.id))
    .where(
      and(
        scopeWhere(auth.scope, ambientSessions),
        eq(ambientSessions.status, 'completed'),
        eq(sessionContent.noteLocked, false),
      ),
    )
    .orderBy(desc(ambientSessions.createdAt))
    .limit(200);
  return rows.map(sessionListItem);
}
