import { sql } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import type { PreChartResponse } from '@/lib/contracts/note-style';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { visitNoteSettings } from '../../db/schema';
import { getOwnedSession } from '../sessions/get-owned-session';
import { getPreChart } from './get-pre-chart';

/**
 * Stores the clinician's pre-visit note for the note engine to use as context (an empty line removes it).
 * Once the visit has ended its note is written, so the note refuses (409).
 */
export async function setPrevisitNote(app: AppContext, auth: ServicePrincipal, sessionId: string, note: string | null): Promise<PreChartResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  if (isTerminal(session.status)) throw conflict(`session is ${session.status}; its pre-visit note can no longer change`);
  const previsitNote = note?.trim() ? note.trim() : null;
  await tenantDb(app, auth).insert(
    visitNoteSettings,
    { sessionId: session.id, previsitNote },
    { onConflict: { target: visitNoteSettings.sessionId, set: { previsitNote, updatedAt: sql`now()` } } },
  );
  return getPreChart(app, auth, sessionId);
}
