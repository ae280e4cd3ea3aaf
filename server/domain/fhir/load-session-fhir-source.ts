import pkg from '@/package.json';
import type { AppContext } from '../../context';
import type { SessionRow } from '../sessions/get-owned-session';
import { loadProvider } from './load-provider';
import { loadSessionFacts } from './load-session-facts';
import type { ExportContext, FhirExportSource } from './types';

/** Everything one session's export is built from; the caller has checked ownership and the terminal state. */
export async function loadSessionFhirSource(app: AppContext, session: SessionRow): Promise<FhirExportSource> {
  const [facts, provider] = await Promise.all([loadSessionFacts(app, session), loadProvider(app, session.providerId, session.partnerId)]);
  return {
    base: app.config.publicBaseUrl,
    partnerId: session.partnerId,
    scope: { kind: 'session', id: session.id },
    compositionId: session.noteId,
    encounterId: session.encounterId,
    emrEncounterId: session.emrEncounterId,
    status: session.status,
    context: (session.context ?? {}) as ExportContext,
    provider,
    content: facts.content,
    engines: facts.engine ? [facts.engine] : [],
    serviceVersion: pkg.version,
    hccModel: app.config.hccModel,
    noteStatus: facts.noteStatus,
    signedAt: facts.signedAt,
    updatedAt: facts.updatedAt,
    period: { start: facts.start, end: facts.end },
    recordings: facts.recordings,
  };
}
