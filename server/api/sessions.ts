import * as contract from '@/lib/contracts/routes/sessions';
import { bindRoute, StatusReply } from '../http/route';
import { createSession } from '../domain/sessions/create-session';
import { getOwnedSession } from '../domain/sessions/get-owned-session';
import { updateSessionContext } from '../domain/sessions/update-session-context';
import { metadataToContextPatch } from '../domain/sessions/metadata-to-context';
import { getTranscript } from '../domain/sessions/get-transcript';
import { getSessionContent } from '../domain/sessions/get-session-content';
import { getEncounterContent } from '../domain/sessions/get-encounter-content';
import { endSession } from '../domain/sessions/end-session';
import { listRecordings } from '../domain/sessions/list-recordings';
import { serveRecordingAudio } from '../domain/sessions/serve-recording-audio';
import { getOwnedSessionStatus } from '../domain/sessions/get-owned-session-status';
import { structuredDataVersion } from '../domain/structured-data/structured-data-version';
import type { AppContext } from '../context';
import type { ServicePrincipal } from '../auth/authenticate-service';

/** A session's content with the version of its structured data, which a change by position carries (issue 29). */
async function versionedContent(app: AppContext, auth: ServicePrincipal, sessionId: string) {
  const content = await getSessionContent(app, auth, sessionId);
  return { ...content, structured_data_version: structuredDataVersion(content.structured_data) };
}

export const sessionRoutes = [
  bindRoute(contract.createSession, async ({ app, auth, body }) => new StatusReply(201, await createSession(app, auth, body))),
  bindRoute(contract.setSessionContext, async ({ app, auth, params, body }) => ({
    context: await updateSessionContext(app, auth, params.ambient_session_id, { mode: 'replace', context: body }),
  })),
  bindRoute(contract.patchSessionContext, async ({ app, auth, params, body }) => ({
    context: await updateSessionContext(app, auth, params.ambient_session_id, { mode: 'merge', patch: body }),
  })),
  bindRoute(contract.getSessionContext, async ({ app, auth, params }) => {
    const s = await getOwnedSession(app, auth, params.ambient_session_id);
    return { context: s.context ?? {} };
  }),
  bindRoute(contract.setSessionMetadata, async ({ app, auth, params, body }) => {
    await updateSessionContext(app, auth, params.ambient_session_id, { mode: 'merge', patch: metadataToContextPatch(body) });
    return new StatusReply(200);
  }),
  bindRoute(contract.endSession, ({ app, auth, params }) => endSession(app, auth, params.ambient_session_id)),
  bindRoute(contract.getSessionStatus, async ({ app, auth, params }) => ({ status: await getOwnedSessionStatus(app, auth, params.ambient_session_id) })),
  bindRoute(contract.getTranscript, ({ app, auth, params }) => getTranscript(app, auth, params.ambient_session_id)),
  bindRoute(contract.getSessionContent, ({ app, auth, params }) => versionedContent(app, auth, params.ambient_session_id)),
  bindRoute(contract.getSessionContentDeprecated, ({ app, auth, params }) => versionedContent(app, auth, params.ambient_session_id)),
  bindRoute(contract.getSessionStructuredData, async ({ app, auth, params }) => {
    const content = await versionedContent(app, auth, params.ambient_session_id);
    return { structured_data: content.structured_data, structured_data_version: content.structured_data_version };
  }),
  bindRoute(contract.getSessionEncounterContent, async ({ app, auth, params }) => {
    const s = await getOwnedSession(app, auth, params.ambient_session_id);
    return getEncounterContent(app, auth, s.encounterId);
  }),
  bindRoute(contract.getSessionEncounterStructuredData, async ({ app, auth, params }) => {
    const s = await getOwnedSession(app, auth, params.ambient_session_id);
    return { structured_data: (await getEncounterContent(app, auth, s.encounterId)).structured_data };
  }),
  bindRoute(contract.getEncounterContent, ({ app, auth, params }) => getEncounterContent(app, auth, params.encounter_id)),
  bindRoute(contract.getEncounterStructuredData, async ({ app, auth, params }) => ({ structured_data: (await getEncounterContent(app, auth, params.encounter_id)).structured_data })),
  bindRoute(contract.listRecordings, ({ app, auth, params, query }) => listRecordings(app, auth, params.ambient_session_id, query.download === true)),
  bindRoute(contract.getRecordingAudio, ({ app, params, query, req }) => serveRecordingAudio(app, params.recording_id, query, req.headers.get('range'))),
];
