import { eq } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import type { NoteSignoffState } from '@/lib/contracts/note-signoff';
import type { NoteReviewOutcome, SignNoteRequest } from '@/lib/contracts/note-review';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { noteSignoffs, sessionContent } from '../../db/schema';
import { lockOwnedNote } from './lock-owned-note';
import { readSignoffState } from './read-signoff-state';
import { notifyNoteSigned } from './notify-note-signed';
import { buildReviewItems } from './build-review-items';
import { checkReviewOutcome } from './check-review-outcome';
import { loadReviewInputs } from './load-review-inputs';

/**
 * Signs the note: records the signer and time, keeps the note as signed, and locks the sections. A
 * first signature makes it `signed`; signing an amended note keeps `amended` (the FHIR export reports
 * it as an amended Composition). Signing a note that is already locked is 409.
 * With a review outcome (issue 27), the review is built again from the locked note, so an edit made after the
 * signer's review is listed and must be decided too; the outcome is kept with the signature. Without one the
 * note is signed as before the review existed (partners' integrations keep working).
 */
export async function signNote(app: AppContext, auth: ServicePrincipal, sessionId: string, body: SignNoteRequest = {}): Promise<NoteSignoffState> {
  const tdb = tenantDb(app, auth);
  const { signoffId, session, review } = await tdb.transaction(async (tx) => {
    const { session, note } = await lockOwnedNote(tx, sessionId);
    if (session.status !== 'completed') throw conflict(`only a completed visit's note can be signed; session status is ${session.status}`);
    if (note.noteLocked) throw conflict(`the note is already signed (${note.signedAt?.toISOString() ?? ''}); amend it to change it`);
    let review: NoteReviewOutcome | null = null;
    if (body.review) {
      review = checkReviewOutcome(body.review, buildReviewItems(await loadReviewInputs(tx, sessionId, session.context, note)));
    }
    const now = new Date();
    const noteStatus = note.noteStatus === 'draft' ? 'signed' : 'amended';
    await tx.update(sessionContent, { noteStatus, signedAt: now, signedBy: auth.providerId, noteLocked: true, updatedAt: now }, eq(sessionContent.sessionId, sessionId));
    const [signoff] = await tx.insert(noteSignoffs, { sessionId, action: 'sign', summary: note.summary, review, providerId: auth.providerId, at: now });
    return { signoffId: signoff!.id, session, review };
  });
  const state = await readSignoffState(tdb, sessionId);
  // After the commit, like the session webhooks: a lost wake-up is picked up by the outbox sweeper.
  await notifyNoteSigned(app, auth, { sessionId, encounterId: session.encounterId, partnerId: session.partnerId, signoffId, state, review });
  return state;
}
