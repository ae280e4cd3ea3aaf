import type { FhirExportQuery } from '@/lib/contracts/fhir';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { finishFhirExport } from './finish-fhir-export';
import { loadEncounterFhirSource } from './load-encounter-fhir-source';

/** GET …/encounter/{id}/fhir: the caller's completed sessions of the encounter as one document. */
export async function exportEncounterFhir(app: AppContext, auth: ServicePrincipal, encounterId: string, query: FhirExportQuery): Promise<Response> {
  return finishFhirExport(app, await loadEncounterFhirSource(app, auth, encounterId), query, `encounter-${encounterId}`);
}
