import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { SessionListItem } from '@/lib/contracts/clinician';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { scopeWhere } from '../scope/scope-where';
import type { AppContext } from '../../context';
import { ambientSessions, sessionContent } from '../../db/schema';
import { sessionListColumns, sessionListItem } from './session-list-item';

/** LIKE wildcards in the clinician's text are matched literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The provider's own visits (under the calling partner) whose patient name, MRN or chief complaint
 * contains `q`, case-insensitively, newest first, on any day.
 */
export async function searchProviderSessions(app: AppContext, auth: ServicePrincipal, q: string): Promise<SessionListItem[]> {
  const pattern = likePattern(q);
  const rows = await app.db
    .select(sessionListColumns)
    .from(ambientSessions)
    .leftJoin(sessionContent, eq(sessionContent.sessionId, ambientSessions.id))
    .where(
      and(
        scopeWhere(auth.scope, ambientSessions),
        or(
          ilike(sql`${ambientSessions.context}->'patient'->>'name'`, pattern),
          ilike(sql`${ambientSessions.context}->'patient'->>'mrn'`, pattern),
          ilike(sql`${ambientSessions.context}->'visit'->>'chief_complaint'`, pattern),
        ),
      ),
    )
    .orderBy(desc(ambientSessions.createdAt))
    .limit(100);
  return rows.map(sessionListItem);
}
