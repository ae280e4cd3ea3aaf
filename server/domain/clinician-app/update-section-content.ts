import { eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import type { SummarySection } from '@/lib/contracts/sessions';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { sessionContent } from '../../db/schema';
import { lockOwnedNote } from '../note-signoff/lock-owned-note';
import { recordSectionVersion } from '../note-signoff/record-section-version';

/**
 * Stores the clinician's edit of one generated note section and keeps the change as a version (who,
 * when, before, after; one version per editing burst and a bounded number per section, as
 * recordSectionVersion says). A signed note is locked: 409 until it is amended. The per-sentence
 * provenance no longer describes edited text, so it is dropped for that section; the section-level
 * sources stay.
 */
export async function updateSectionContent(
  app: AppContext,
  auth: ServicePrincipal,
  sessionId: string,
  loinc: string,
  content: string,
): Promise<SummarySection> {
  return tenantDb(app, auth).transaction(async (tx) => {
    const { note } = await lockOwnedNote(tx, sessionId);
    if (note.noteLocked) throw conflict('the note is signed; amend it (with a reason) before changing a section');
    const summary = (note.summary as SummarySection[]).slice();
    const i = summary.findIndex((s) => s.loinc_code === loinc);
    if (i < 0) throw notFound(`the note has no section with loinc ${loinc}`);
    const { sentences: _dropped, ...rest } = summary[i]!;
    const updated: SummarySection = { ...rest, content };
    // Autosave sends the text again after every pause; an unchanged section is no new version.
    if (summary[i]!.content === content) return updated;
    summary[i] = updated;
    const now = new Date();
    await tx.update(sessionContent, { summary, updatedAt: now }, eq(sessionContent.sessionId, sessionId));
    await recordSectionVersion(tx, app.config.noteHistory, { sessionId, loincCode: loinc, before: rest.content, after: content, providerId: auth.providerId, at: now });
    return updated;
  });
}
