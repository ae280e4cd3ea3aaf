import { eq } from 'drizzle-orm';
import type { VisitNoteStyle } from '@/lib/contracts/note-style';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { visitNoteSettings } from '../../db/schema';
import { getOwnedSession } from '../sessions/get-owned-session';
import { getPreferences } from '../preferences/get-preferences';

/** The visit's chosen style and the one its note is written in: the visit's, else the clinician's default. */
export async function getVisitNoteStyle(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<VisitNoteStyle> {
  await getOwnedSession(app, auth, sessionId);
  const row = (await app.db.select({ noteStyle: visitNoteSettings.noteStyle }).from(visitNoteSettings).where(eq(visitNoteSettings.sessionId, sessionId)).limit(1))[0];
  const prefs = (await getPreferences(app, auth)).personalization_preference;
  const chosen = row?.noteStyle ?? null;
  return { note_style: chosen, effective_style: chosen ?? prefs.note_style ?? null, rerendered: false };
}
