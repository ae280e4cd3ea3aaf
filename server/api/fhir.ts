import * as contract from '@/lib/contracts/routes/fhir';
import { bindRoute } from '../http/route';
import { exportSessionFhir } from '../domain/fhir/export-session-fhir';
import { exportEncounterFhir } from '../domain/fhir/export-encounter-fhir';
import { exportAdminSessionFhir } from '../domain/fhir/export-admin-session-fhir';

export const fhirRoutes = [
  bindRoute(contract.exportSessionFhir, ({ app, auth, params, query }) => exportSessionFhir(app, auth, params.ambient_session_id, query)),
  bindRoute(contract.exportEncounterFhir, ({ app, auth, params, query }) => exportEncounterFhir(app, auth, params.encounter_id, query)),
  bindRoute(contract.exportAdminSessionFhir, ({ app, auth, params, query }) => exportAdminSessionFhir(app, auth, params.id, query)),
];
