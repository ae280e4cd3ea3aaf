import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { SessionListItem } from '@/lib/contracts/clinician';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import type { AppContext } from '../../context';
import { ambientSessions, sessionContent } from '../../db/schema';
import { sessionListColumns, sessionListItem } from './session-list-item';

/** The provider's sessions (under the calling partner) created on one local calendar day. */
export async function listProviderSessions(
  app: AppContext,
  auth: ServicePrincipal,
  date: string,
  utcOffsetMinutes = 0,
): Promise<SessionListItem[]> {
  const start = new Date(Date.parse(`${date}T00:00:00Z`) - utcOffsetMinutes * 60_000);
  const end = new Date(start.getTime() + 24 * 3600_000);
  const rows = await tenantDb(app, auth)
    .select(ambientSessions, sessionListColumns, and(gte(ambientSessions.createdAt, start), lt(ambientSessions.createdAt, end)))
    .leftJoin(sessionContent, eq(sessionContent.sessionId, ambientSessions.id))
    .orderBy(desc(ambientSessions.createdAt))
    .limit(500);
  return rows.map(sessionListItem);
}
