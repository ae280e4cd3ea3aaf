import { and, desc, eq } from 'drizzle-orm';
import type { SessionListItem } from '@/lib/contracts/clinician';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import type { AppContext } from '../../context';
import { ambientSessions, sessionContent } from '../../db/schema';
import { sessionListColumns, sessionListItem } from './session-list-item';

/** The provider's completed visits whose note is not signed (draft, or amended and not signed again), on any day. */
export async function listNeedsReview(app: AppContext, auth: ServicePrincipal): Promise<SessionListItem[]> {
  const rows = await tenantDb(app, auth)
    .select(ambientSessions, sessionListColumns, and(eq(ambientSessions.status, 'completed'), eq(sessionContent.noteLocked, false)))
    .innerJoin(sessionContent, eq(sessionContent.sessionId, ambientSessions.id))
    .orderBy(desc(ambientSessions.createdAt))
    .limit(200);
  return rows.map(sessionListItem);
}
