import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { SessionListItem } from '@/lib/contracts/clinician';
import type { SessionStatus } from '@/lib/contracts/session-status';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { ambientSessions } from '../../db/schema';

/** The provider's sessions (under the calling partner) created on one local calendar day. */
export async function listProviderSessions(
  app: AppContext,
  auth: ServicePrincipal,
  date: string,
  utcOffsetMinutes = 0,
): Promise<SessionListItem[]> {
  const start = new Date(Date.parse(`${date}T00:00:00Z`) - utcOffsetMinutes * 60_000);
  const end = new Date(start.getTime() + 24 * 3600_000);
  const rows = await app.db
    .select({
      id: ambientSessions.id,
      encounterId: ambientSessions.encounterId,
      status: ambientSessions.status,
      createdAt: ambientSessions.createdAt,
      context: ambientSessions.context,
      audioMs: ambientSessions.audioMs,
    })
    .from(ambientSessions)
    .where(
      and(
        eq(ambientSessions.providerId, auth.providerId),
        eq(ambientSessions.partnerId, auth.partnerId),
        gte(ambientSessions.createdAt, start),
        lt(ambientSessions.createdAt, end),
      ),
    )
    .orderBy(desc(ambientSessions.createdAt))
    .limit(500);
  return rows.map((r) => {
    const visit = (r.context as { visit?: { chief_complaint?: unknown; visit_type?: unknown } } | null)?.visit;
    return {
      ambient_session_id: r.id,
      encounter_id: r.encounterId,
      status: r.status as SessionStatus,
      created_at: r.createdAt.toISOString(),
      chief_complaint: typeof visit?.chief_complaint === 'string' ? visit.chief_complaint : null,
      visit_type: typeof visit?.visit_type === 'string' ? visit.visit_type : null,
      audio_ms: Number(r.audioMs),
    };
  });
}
