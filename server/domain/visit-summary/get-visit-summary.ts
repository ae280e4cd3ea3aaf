import { eq } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import type { ClinicSettings } from '@/lib/contracts/partners';
import { partners } from '../../db/schema';
import type { VisitSummaryResponse } from '@/lib/contracts/visit-summary';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { getOwnedSession } from '../sessions/get-owned-session';
import { readStoredContent } from '../sessions/get-session-content';
import { buildVisitSummary } from './build-visit-summary';

/** The after-visit summary of the caller's own completed visit; 409 naming the status before then. */
export async function getVisitSummary(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<VisitSummaryResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  if (session.status !== 'completed') {
    throw conflict(`session is ${session.status}; the visit summary is available once the session is completed with a note`);
  }
  const tdb = tenantDb(app, auth);
  const content = await readStoredContent(tdb, session.id);
  const visit = (session.context as { visit?: { chief_complaint?: unknown } } | null)?.visit;
  // The clinic named on the summary is the partner's setting (issue 29): the patient is told whom to call.
  const [partner] = await tdb.select(partners, { clinic: partners.clinic }, eq(partners.partnerId, session.partnerId)).limit(1);
  const clinic = (partner?.clinic as ClinicSettings | null | undefined) ?? null;
  return buildVisitSummary(session.id, content.summary, content.structured_data, typeof visit?.chief_complaint === 'string' ? visit.chief_complaint : null, clinic);
}
