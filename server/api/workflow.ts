/**
 * Clinician workflow additions to the v1 API (issue 17): visit search and the "needs review" list,
 * note sign-off (sign, amend with a reason, history) and the patient's after-visit summary.
 */
import * as contract from '@/lib/contracts/routes/workflow';
import { bindRoute, type RouteDef } from '../http/route';
import { updatePatientIdentity } from '../domain/clinician-app/update-patient-identity';
import { searchProviderSessions } from '../domain/clinician-app/search-provider-sessions';
import { listNeedsReview } from '../domain/clinician-app/list-needs-review';
import { signNote } from '../domain/note-signoff/sign-note';
import { amendNote } from '../domain/note-signoff/amend-note';
import { getNoteReview } from '../domain/note-signoff/get-note-review';
import { getNoteHistory } from '../domain/note-signoff/get-note-history';
import { getVisitSummary } from '../domain/visit-summary/get-visit-summary';

export const workflowRoutes: RouteDef[] = [
  bindRoute(contract.updatePatientIdentity, async ({ app, auth, params, body }) => updatePatientIdentity(app, auth, params.ambient_session_id, body)),
  bindRoute(contract.searchSessions, async ({ app, auth, query }) => ({ sessions: await searchProviderSessions(app, auth, query.q) })),
  bindRoute(contract.listNeedsReview, async ({ app, auth }) => ({ sessions: await listNeedsReview(app, auth) })),
  bindRoute(contract.signNote, async ({ app, auth, params, body }) => signNote(app, auth, params.ambient_session_id, body)),
  bindRoute(contract.getNoteReview, async ({ app, auth, params }) => getNoteReview(app, auth, params.ambient_session_id)),
  bindRoute(contract.amendNote, async ({ app, auth, params, body }) => amendNote(app, auth, params.ambient_session_id, body.reason)),
  bindRoute(contract.getNoteHistory, async ({ app, auth, params, query }) => getNoteHistory(app, auth, params.ambient_session_id, query)),
  bindRoute(contract.getVisitSummary, async ({ app, auth, params }) => getVisitSummary(app, auth, params.ambient_session_id)),
];
