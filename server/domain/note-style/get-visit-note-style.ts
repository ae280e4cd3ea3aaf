import { eq } from 'drizzle-orm';
import type { VisitNoteStyle } from '@/lib/contracts/note-style';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { visitNoteSettings } from '../../db/schema';
import { getOwnedSession } from '../sessions/get-owned-session';
import { getPreferences } from '../preferences/get-preferences';

/** The visit's chosen style and the one its note is written in: the visit's, else the clinician's default. */
export async function getVisitNoteStyle(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<VisitNoteStyle> {
  const session = await getOwnedSession(app, auth, sessionId);
  const row = await tenantDb(app, auth).find(visitNoteSettings, eq(visitNoteSettings.sessionId, session.id));
  const prefs = (await getPreferences(app, auth)).personalization_preference;
  const chosen = row?.noteStyle ?? null;
  return { note_style: chosen, effective_style: chosen ?? prefs.note_style ?? null, rerendered: false };
}
