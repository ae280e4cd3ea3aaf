import { and, eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import type { SummarySection } from '@/lib/contracts/sessions';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { ambientSessions, sessionContent } from '../../db/schema';

/**
 * Stores the clinician's edit of one generated note section. The per-sentence provenance no longer
 * describes edited text, so it is dropped for that section; the section-level sources stay.
 */
export async function updateSectionContent(
  app: AppContext,
  auth: ServicePrincipal,
  sessionId: string,
  loinc: string,
  content: string,
): Promise<SummarySection> {
  return app.db.transaction(async (tx) => {
    const [session] = await tx
      .select({ status: ambientSessions.status })
      .from(ambientSessions)
      .where(and(eq(ambientSessions.id, sessionId), eq(ambientSessions.providerId, auth.providerId), eq(ambientSessions.partnerId, auth.partnerId)))
      .limit(1);
    if (!session) throw notFound('ambient session not found');
    const [row] = await tx.select({ summary: sessionContent.summary }).from(sessionContent).where(eq(sessionContent.sessionId, sessionId)).for('update').limit(1);
    if (!row) throw conflict(`the note has not been generated yet; session status is ${session.status}`);
    const summary = (row.summary as SummarySection[]).slice();
    const i = summary.findIndex((s) => s.loinc_code === loinc);
    if (i < 0) throw notFound(`the note has no section with loinc ${loinc}`);
    const { sentences: _dropped, ...rest } = summary[i]!;
    const updated: SummarySection = { ...rest, content };
    summary[i] = updated;
    await tx.update(sessionContent).set({ summary, updatedAt: new Date() }).where(eq(sessionContent.sessionId, sessionId));
    return updated;
  });
}
