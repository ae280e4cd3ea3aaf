import { eq } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import type { NoteSignoffState } from '@/lib/contracts/note-signoff';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { noteSignoffs, sessionContent } from '../../db/schema';
import { lockOwnedNote } from './lock-owned-note';
import { readSignoffState } from './read-signoff-state';

/**
 * Reopens a signed note for changes, with the clinician's reason. The signed version stays in the
 * history (kept by the sign event) and signed_at keeps dating it until the note is signed again.
 */
export async function amendNote(app: AppContext, auth: ServicePrincipal, sessionId: string, reason: string): Promise<NoteSignoffState> {
  const tdb = tenantDb(app, auth);
  await tdb.transaction(async (tx) => {
    const { note } = await lockOwnedNote(tx, sessionId);
    if (!note.noteLocked) {
      throw conflict(note.noteStatus === 'draft' ? 'the note is not signed yet; edit it directly' : 'the note is already open for amendment');
    }
    const now = new Date();
    await tx.update(sessionContent, { noteStatus: 'amended', noteLocked: false, updatedAt: now }, eq(sessionContent.sessionId, sessionId));
    await tx.insert(noteSignoffs, { sessionId, action: 'amend', reason, providerId: auth.providerId, at: now });
  });
  return readSignoffState(tdb, sessionId);
}
