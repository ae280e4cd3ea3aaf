import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { SessionListItem } from '@/lib/contracts/clinician';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import type { AppContext } from '../../context';
import { ambientSessions, sessionContent } from '../../db/schema';
import { sessionListColumns, sessionListItem } from './session-list-item';
import { noteMatch } from './note-match';

/** LIKE wildcards in the clinician's text are matched literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The provider's own visits (under the calling partner) whose patient name, MRN, chief complaint or note
 * text contains `q`, case-insensitively, newest first, on any day. The note is searched section by section
 * (its content as it stands, edits included), so a word in a heading or a section's JSON keys never matches.
 */
export async function searchProviderSessions(app: AppContext, auth: ServicePrincipal, q: string): Promise<SessionListItem[]> {
  const pattern = likePattern(q);
  const rows = await tenantDb(app, auth)
    .select(
      ambientSessions,
      { ...sessionListColumns, summary: sessionContent.summary },
      or(
          ilike(sql`${ambientSessions.context}->'patient'->>'name'`, pattern),
          ilike(sql`${ambientSessions.context}->'patient'->>'mrn'`, pattern),
          ilike(sql`${ambientSessions.context}->'visit'->>'chief_complaint'`, pattern),
          sql`exists (select 1 from jsonb_array_elements(case when jsonb_typeof(${sessionContent.summary}) = 'array' then ${sessionContent.summary} else '[]'::jsonb end) as s(section) where s.section->>'content' ilike ${pattern})`,
      ),
    )
    .leftJoin(sessionContent, eq(sessionContent.sessionId, ambientSessions.id))
    .orderBy(desc(ambientSessions.createdAt))
    .limit(100);
  return rows.map(({ summary, ...r }) => ({ ...sessionListItem(r), note_match: noteMatch(summary, q) }));
}
