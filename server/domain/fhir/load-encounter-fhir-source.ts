import { and, asc, eq } from 'drizzle-orm';
import pkg from '@/package.json';
import { conflict, notFound } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import type { NoteStatus } from '@/lib/contracts/note-status';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { ambientSessions } from '../../db/schema';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { mergeEncounterContent } from '../sessions/merge-encounter-content';
import { deriveResourceId } from './derive-resource-id';
import { loadProvider } from './load-provider';
import { loadSessionFacts } from './load-session-facts';
import type { ExportContext, FhirExportSource } from './types';

/** The encounter's note is signed only when every session's note is; amended when any was amended since. */
function encounterNoteStatus(statuses: NoteStatus[]): NoteStatus {
  if (statuses.length === 0 || statuses.some((s) => s === 'draft')) return 'draft';
  return statuses.includes('amended') ? 'amended' : 'signed';
}

/**
 * Everything an encounter's export is built from: the caller's completed sessions of it, merged the way
 * GET …/encounter/{id}/content merges them. 404 when the caller has no session in the encounter, 409
 * while none is completed and one is still in progress (the content route's rules).
 */
export async function loadEncounterFhirSource(
  app: AppContext,
  auth: Pick<ServicePrincipal, 'providerId' | 'partnerId' | 'scope'>,
  encounterId: string,
): Promise<FhirExportSource> {
  const sessions = await tenantDb(app, auth).select(ambientSessions, undefined, eq(ambientSessions.encounterId, encounterId))
    .orderBy(asc(ambientSessions.createdAt), asc(ambientSessions.id));
  if (sessions.length === 0) throw notFound(`encounter ${encounterId} not found`);
  const completed = sessions.filter((s) => s.status === 'completed');
  if (completed.length === 0) {
    const pending = sessions.find((s) => !isTerminal(s.status));
    if (pending) throw conflict(`no session of this encounter is completed yet; session ${pending.id} is ${pending.status}`);
  }
  const facts = [];
  for (const s of completed) facts.push(await loadSessionFacts(app, s));
  const last = completed.at(-1) ?? sessions.at(-1)!;
  const times = (xs: Array<Date | null>) => xs.filter((d): d is Date => d !== null).map((d) => d.getTime());
  const starts = times(facts.map((f) => f.start));
  const ends = times(facts.map((f) => f.end));
  const signed = times(facts.map((f) => f.signedAt));
  return {
    base: app.config.publicBaseUrl,
    partnerId: auth.partnerId,
    scope: { kind: 'encounter', id: encounterId },
    compositionId: deriveResourceId('Composition', 'encounter', auth.partnerId, auth.providerId, encounterId),
    encounterId,
    emrEncounterId: [...sessions].reverse().find((s) => s.emrEncounterId)?.emrEncounterId ?? null,
    status: 'completed',
    context: (last.context ?? {}) as ExportContext,
    provider: await loadProvider(app, auth.providerId, auth.partnerId),
    content: mergeEncounterContent(facts.map((f) => f.content)),
    engines: [...new Set(facts.map((f) => f.engine).filter((e): e is string => !!e))],
    serviceVersion: pkg.version,
    hccModel: app.config.hccModel,
    noteStatus: encounterNoteStatus(facts.map((f) => f.noteStatus)),
    signedAt: signed.length ? new Date(Math.max(...signed)) : null,
    updatedAt: new Date(Math.max(...facts.map((f) => f.updatedAt.getTime()), last.updatedAt.getTime())),
    period: { start: starts.length ? new Date(Math.min(...starts)) : last.createdAt, end: ends.length ? new Date(Math.max(...ends)) : null },
    recordings: facts.flatMap((f) => f.recordings),
  };
}
