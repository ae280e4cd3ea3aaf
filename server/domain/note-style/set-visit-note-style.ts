import { eq, sql } from 'drizzle-orm';
import { badRequest, conflict } from '@/lib/errors';
import { templateIdOf, type VisitNoteStyle } from '@/lib/contracts/note-style';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { sessionContent, visitNoteSettings } from '../../db/schema';
import { getOwnedSession } from '../sessions/get-owned-session';
import { getPreferences } from '../preferences/get-preferences';
import { restyleVisitNote } from './restyle-visit-note';

/**
 * Stores the visit's note style. Before the note exists it is simply used when the note is written; a finished
 * note is written again in it from the stored transcript. A signed note refuses before anything is stored.
 */
export async function setVisitNoteStyle(app: AppContext, auth: ServicePrincipal, sessionId: string, noteStyle: string): Promise<VisitNoteStyle> {
  const session = await getOwnedSession(app, auth, sessionId);
  const prefs = (await getPreferences(app, auth)).personalization_preference;
  const id = templateIdOf(noteStyle);
  if (id && !(prefs.templates ?? []).some((t) => t.id.toLowerCase() === id)) throw badRequest(`note_style: names template ${id}, which is not one of your templates`);
  const tdb = tenantDb(app, auth);
  const [note] = await tdb.select(sessionContent, { locked: sessionContent.noteLocked }, eq(sessionContent.sessionId, session.id)).limit(1);
  if (note?.locked) throw conflict('the note is signed; amend it (with a reason) before changing its style');
  await tdb.insert(
    visitNoteSettings,
    { sessionId: session.id, noteStyle },
    { onConflict: { target: visitNoteSettings.sessionId, set: { noteStyle, updatedAt: sql`now()` } } },
  );
  const rerender = session.status === 'completed' && !!note;
  if (rerender) await restyleVisitNote(app, auth, session);
  return { note_style: noteStyle, effective_style: noteStyle, rerendered: rerender };
}
