/** The clinician's edits of a note's structured data, their history, and the code searches (issue 29 item 5). */
import * as contract from '@/lib/contracts/routes/structured-data';
import { bindRoute, StatusReply, type RouteDef } from '../http/route';
import { addStructuredItem } from '../domain/structured-data/add-structured-item';
import { updateStructuredItem } from '../domain/structured-data/update-structured-item';
import { removeStructuredItem } from '../domain/structured-data/remove-structured-item';
import { getStructuredDataHistory } from '../domain/structured-data/get-structured-data-history';
import { searchIcd10 } from '../domain/structured-data/search-icd10';
import { searchRxNorm } from '../domain/structured-data/search-rxnorm';
import { searchAllergySubstances } from '../domain/structured-data/search-allergy-substances';
import { searchOrderables } from '../domain/structured-data/search-orderables';

export const structuredDataRoutes: RouteDef[] = [
  bindRoute(contract.addDiagnosis, async ({ app, auth, params, body }) => new StatusReply(201, await addStructuredItem(app, auth, params.ambient_session_id, 'diagnoses', body))),
  bindRoute(contract.updateDiagnosis, ({ app, auth, params, query, body }) => updateStructuredItem(app, auth, params.ambient_session_id, 'diagnoses', params.position, body, query.version)),
  bindRoute(contract.removeDiagnosis, ({ app, auth, params, query }) => removeStructuredItem(app, auth, params.ambient_session_id, 'diagnoses', params.position, query.version)),
  bindRoute(contract.addMedicationOrder, async ({ app, auth, params, body }) => new StatusReply(201, await addStructuredItem(app, auth, params.ambient_session_id, 'medication_orders', body))),
  bindRoute(contract.updateMedicationOrder, ({ app, auth, params, query, body }) => updateStructuredItem(app, auth, params.ambient_session_id, 'medication_orders', params.position, body, query.version)),
  bindRoute(contract.removeMedicationOrder, ({ app, auth, params, query }) => removeStructuredItem(app, auth, params.ambient_session_id, 'medication_orders', params.position, query.version)),
  bindRoute(contract.addAllergy, async ({ app, auth, params, body }) => new StatusReply(201, await addStructuredItem(app, auth, params.ambient_session_id, 'allergies', body))),
  bindRoute(contract.updateAllergy, ({ app, auth, params, query, body }) => updateStructuredItem(app, auth, params.ambient_session_id, 'allergies', params.position, body, query.version)),
  bindRoute(contract.removeAllergy, ({ app, auth, params, query }) => removeStructuredItem(app, auth, params.ambient_session_id, 'allergies', params.position, query.version)),
  bindRoute(contract.addServiceOrder, async ({ app, auth, params, body }) => new StatusReply(201, await addStructuredItem(app, auth, params.ambient_session_id, 'service_orders', body))),
  bindRoute(contract.updateServiceOrder, ({ app, auth, params, query, body }) => updateStructuredItem(app, auth, params.ambient_session_id, 'service_orders', params.position, body, query.version)),
  bindRoute(contract.removeServiceOrder, ({ app, auth, params, query }) => removeStructuredItem(app, auth, params.ambient_session_id, 'service_orders', params.position, query.version)),
  bindRoute(contract.getStructuredDataHistory, ({ app, auth, params }) => getStructuredDataHistory(app, auth, params.ambient_session_id)),
  bindRoute(contract.searchIcd10, ({ app, query }) => searchIcd10(app, query)),
  bindRoute(contract.searchRxNorm, ({ app, query }) => searchRxNorm(app, query)),
  bindRoute(contract.searchAllergySubstances, ({ app, query }) => searchAllergySubstances(app, query)),
  bindRoute(contract.searchOrderables, ({ query }) => searchOrderables(query)),
];
