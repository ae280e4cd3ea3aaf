import { asc, eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import type { ContentResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { ambientSessions } from '../../db/schema';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { readStoredContent } from './get-session-content';
import { mergeEncounterContent } from './merge-encounter-content';

/**
 * Cumulative content over the caller's completed sessions of an encounter. 404 when the caller has no
 * session in it; 409 while nothing is completed yet but a session is still in progress.
 */
export async function getEncounterContent(app: AppContext, auth: ServicePrincipal, encounterId: string): Promise<ContentResponse> {
  const tdb = tenantDb(app, auth);
  const sessions = await tdb.list(ambientSessions, { where: eq(ambientSessions.encounterId, encounterId), orderBy: [asc(ambientSessions.createdAt), asc(ambientSessions.id)] });
  if (sessions.length === 0) throw notFound(`encounter ${encounterId} not found`);
  const completed = sessions.filter((s) => s.status === 'completed');
  if (completed.length === 0) {
    const pending = sessions.find((s) => !isTerminal(s.status));
    if (pending) throw conflict(`no session of this encounter is completed yet; session ${pending.id} is ${pending.status}`);
  }
  const notes: ContentResponse[] = [];
  for (const s of completed) notes.push(await readStoredContent(tdb, s.id));
  return mergeEncounterContent(notes);
}
