import { and, eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import type { FhirExportQuery } from '@/lib/contracts/fhir';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { ambientSessions } from '../../db/schema';
import { finishFhirExport } from './finish-fhir-export';
import { loadSessionFhirSource } from './load-session-fhir-source';

/** The console's view of a session's export: a partner admin sees only its own partner's sessions. */
export async function exportAdminSessionFhir(app: AppContext, admin: AdminPrincipal, sessionId: string, query: FhirExportQuery): Promise<Response> {
  const [session] = await tenantDb(app, admin).select(ambientSessions, undefined, eq(ambientSessions.id, sessionId)).limit(1);
  if (!session) throw notFound(`session ${sessionId} not found`);
  if (!isTerminal(session.status)) throw conflict(`session is ${session.status}; the FHIR export is available once it is completed`);
  return finishFhirExport(app, await loadSessionFhirSource(app, session), query, `session-${session.id}`);
}
