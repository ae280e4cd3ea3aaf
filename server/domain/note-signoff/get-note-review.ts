import { and, eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import { NOTE_ATTESTATION, type NoteReviewResponse } from '@/lib/contracts/note-review';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { ambientSessions, sessionContent } from '../../db/schema';
import { buildReviewItems } from './build-review-items';
import { loadReviewInputs } from './load-review-inputs';

/**
 * The review before signing: what needs the signer's decision in the note as it stands, and the attestation
 * to confirm. Another tenant's session is 404; a visit without a note yet is 409 naming its status.
 */
export async function getNoteReview(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<NoteReviewResponse> {
  const tdb = tenantDb(app, auth);
  const [session] = await tdb.select(ambientSessions, { id: ambientSessions.id, status: ambientSessions.status, context: ambientSessions.context }, eq(ambientSessions.id, sessionId))
    .limit(1);
  if (!session) throw notFound('ambient session not found');
  const note = await tdb.find(sessionContent, eq(sessionContent.sessionId, session.id));
  if (!note || session.status !== 'completed') throw conflict(`only a completed visit's note is reviewed; session status is ${session.status}`);
  const items = buildReviewItems(await loadReviewInputs(tdb, session.id, session.context, note));
  return { ambient_session_id: session.id, items, attestation: NOTE_ATTESTATION };
}
