import { conflict } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import type { FhirExportQuery } from '@/lib/contracts/fhir';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { getOwnedSession } from '../sessions/get-owned-session';
import { finishFhirExport } from './finish-fhir-export';
import { loadSessionFhirSource } from './load-session-fhir-source';

/** GET …/session/{id}/fhir: the content route's scoping (404) and terminal-state rule (409 naming the status). */
export async function exportSessionFhir(app: AppContext, auth: ServicePrincipal, sessionId: string, query: FhirExportQuery): Promise<Response> {
  const session = await getOwnedSession(app, auth, sessionId);
  if (!isTerminal(session.status)) {
    throw conflict(`session is ${session.status}; the FHIR export is available once it is completed (poll GET /api/v1/ambient/session/${session.id}/status)`);
  }
  return finishFhirExport(app, await loadSessionFhirSource(app, session), query, `session-${session.id}`);
}
