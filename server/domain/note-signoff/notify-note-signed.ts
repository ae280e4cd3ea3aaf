import { and, count, eq } from 'drizzle-orm';
import type { NoteSignedPayload } from '@/lib/contracts/webhooks';
import type { NoteSignoffState } from '@/lib/contracts/note-signoff';
import type { NoteReviewOutcome } from '@/lib/contracts/note-review';
import type { AppContext } from '../../context';
import { tenantDb, type Scoped } from '../../db';
import { noteSignoffs, partners } from '../../db/schema';
import { enqueueWebhook } from '../../webhooks/enqueue-webhook';

/**
 * Queues the NOTE_SIGNED notification, delivered through the same outbox as the session webhooks, but
 * only for partners that opted in: a receiver built to the spec answers 400 to an unknown status. `auth` is
 * the signer's scope, in which the session was found.
 */
export async function notifyNoteSigned(
  app: AppContext,
  auth: Scoped,
  input: { sessionId: string; encounterId: string; partnerId: string; signoffId: number; state: NoteSignoffState; review?: NoteReviewOutcome | null },
): Promise<void> {
  const tdb = tenantDb(app, auth);
  const [partner] = await tdb.select(partners, { optedIn: partners.notifyNoteSigned }, eq(partners.partnerId, input.partnerId)).limit(1);
  if (!partner?.optedIn || !input.state.signed_at || input.state.note_status === 'draft') return;
  const [signs] = await tdb.select(noteSignoffs, { n: count() }, and(eq(noteSignoffs.sessionId, input.sessionId), eq(noteSignoffs.action, 'sign')));
  const base = app.config.publicBaseUrl.replace(/\/+$/, '');
  const s = `${base}/api/v1/ambient/session/${input.sessionId}`;
  const body: NoteSignedPayload = {
    status: 'NOTE_SIGNED',
    session_id: input.sessionId,
    encounter_id: input.encounterId,
    note_status: input.state.note_status,
    signed_at: input.state.signed_at,
    version: Math.max(1, signs?.n ?? 1),
    // The decisions without the note's words: the text of each item is PHI and stays in the note history.
    ...(input.review
      ? { review: { attested: true as const, items: input.review.items.map(({ id, kind, loinc_code, decision }) => ({ id, kind, loinc_code, decision })) } }
      : {}),
    _links: {
      contents: [{ method: 'GET', href: `${s}/content`, name: 'session_content' }],
      note_history: [{ method: 'GET', href: `${s}/note/history`, name: 'note_history' }],
      visit_summary: [{ method: 'GET', href: `${s}/visit-summary`, name: 'visit_summary' }],
      status: [{ method: 'GET', href: `${s}/status`, name: 'session_status' }],
    },
  };
  await enqueueWebhook(app, {
    partnerId: input.partnerId,
    sessionId: input.sessionId,
    eventType: 'note.signed',
    eventKey: `note:${input.sessionId}:signed:${input.signoffId}`,
    body,
  });
}
