import {
  ContentResponse,
  ContextResponse,
  CreateSessionRequest,
  CreateSessionResponse,
  EncounterIdParams,
  PatchContextRequest,
  RecordingAudioParams,
  RecordingAudioQuery,
  RecordingListResponse,
  RecordingQuery,
  SessionIdParams,
  SessionMetadataRequest,
  SessionStatusResponse,
  SetContextRequest,
  StructuredDataResponse,
  TranscriptResponse,
} from '@/lib/contracts/sessions';
import { defineRoute, Reply } from '../http/route';
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
import { errors } from './responses';
import { getOwnedSessionStatus } from '../domain/sessions/get-owned-session-status';

const S = '/api/v1/ambient/session/{ambient_session_id}';
const tags = ['Ambient sessions'];

export const sessionRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/ambient/session/create',
    summary: 'Create an ambient session',
    description: 'An omitted encounter_id gets a new one; reusing an encounter_id groups sessions of one visit.',
    tags,
    auth: 'service',
    write: true,
    body: CreateSessionRequest,
    optionalBody: true,
    status: 201,
    responses: { 201: { description: 'created', schema: CreateSessionResponse }, ...errors(400, 401, 403, 409, 413) },
    handler: async ({ app, auth, body }) => new Reply(201, await createSession(app, auth, body)),
  }),
  defineRoute({
    method: 'POST',
    path: `${S}/context`,
    summary: 'Set (replace) the session context',
    tags,
    auth: 'service',
    write: true,
    params: SessionIdParams,
    body: SetContextRequest,
    responses: { 200: { description: 'the stored context', schema: ContextResponse }, ...errors(400, 401, 403, 404, 409, 413) },
    handler: async ({ app, auth, params, body }) => ({
      context: await updateSessionContext(app, auth, params.ambient_session_id, { mode: 'replace', context: body }),
    }),
  }),
  defineRoute({
    method: 'PATCH',
    path: `${S}/context`,
    summary: 'Merge into the session context',
    description: 'Objects merge member by member, arrays replace, null removes a member (JSON merge patch).',
    tags,
    auth: 'service',
    write: true,
    params: SessionIdParams,
    body: PatchContextRequest,
    responses: { 200: { description: 'the merged context', schema: ContextResponse }, ...errors(400, 401, 403, 404, 409, 413) },
    handler: async ({ app, auth, params, body }) => ({
      context: await updateSessionContext(app, auth, params.ambient_session_id, { mode: 'merge', patch: body }),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: `${S}/context`,
    summary: 'Read the session context',
    tags,
    auth: 'service',
    params: SessionIdParams,
    responses: { 200: { description: 'the context', schema: ContextResponse }, ...errors(400, 401, 404) },
    handler: async ({ app, auth, params }) => {
      const s = await getOwnedSession(app, auth, params.ambient_session_id);
      return { context: s.context ?? {} };
    },
  }),
  defineRoute({
    method: 'POST',
    path: `${S}/metadata`,
    summary: 'Set session metadata (deprecated: use context)',
    tags,
    deprecated: true,
    auth: 'service',
    write: true,
    params: SessionIdParams,
    body: SessionMetadataRequest,
    optionalBody: true,
    responses: { 200: { description: 'stored (no body)' }, ...errors(400, 401, 403, 404, 409, 413) },
    handler: async ({ app, auth, params, body }) => {
      await updateSessionContext(app, auth, params.ambient_session_id, { mode: 'merge', patch: metadataToContextPatch(body) });
      return new Reply(200);
    },
  }),
  defineRoute({
    method: 'POST',
    path: `${S}/end`,
    summary: 'End audio capture (same as the stream EOF) and start processing',
    tags,
    auth: 'service',
    write: true,
    params: SessionIdParams,
    responses: { 200: { description: 'processing', schema: SessionStatusResponse }, ...errors(400, 401, 403, 404, 409) },
    handler: ({ app, auth, params }) => endSession(app, auth, params.ambient_session_id),
  }),
  defineRoute({
    method: 'GET',
    path: `${S}/status`,
    summary: 'Session status',
    tags,
    auth: 'service',
    params: SessionIdParams,
    responses: { 200: { description: 'status', schema: SessionStatusResponse }, ...errors(400, 401, 404) },
    handler: async ({ app, auth, params }) => ({ status: await getOwnedSessionStatus(app, auth, params.ambient_session_id) }),
  }),
  defineRoute({
    method: 'GET',
    path: `${S}/transcript`,
    summary: 'Session transcript',
    description: 'After completion, the final transcript; before it, the final live segments so far.',
    tags,
    auth: 'service',
    params: SessionIdParams,
    responses: { 200: { description: 'transcript', schema: TranscriptResponse }, ...errors(400, 401, 404) },
    handler: ({ app, auth, params }) => getTranscript(app, auth, params.ambient_session_id),
  }),
  defineRoute({
    method: 'GET',
    path: `${S}/content`,
    summary: 'Session content: note sections and structured data',
    tags,
    auth: 'service',
    params: SessionIdParams,
    responses: { 200: { description: 'content', schema: ContentResponse }, ...errors(400, 401, 404, 409) },
    handler: ({ app, auth, params }) => getSessionContent(app, auth, params.ambient_session_id),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/ambient/content/{ambient_session_id}',
    summary: 'Session content (deprecated: use /api/v1/ambient/session/{ambient_session_id}/content)',
    tags,
    deprecated: true,
    auth: 'service',
    params: SessionIdParams,
    responses: { 200: { description: 'content', schema: ContentResponse }, ...errors(400, 401, 404, 409) },
    handler: ({ app, auth, params }) => getSessionContent(app, auth, params.ambient_session_id),
  }),
  defineRoute({
    method: 'GET',
    path: `${S}/structured-data`,
    summary: 'Session structured data',
    tags,
    auth: 'service',
    params: SessionIdParams,
    responses: { 200: { description: 'structured data', schema: StructuredDataResponse }, ...errors(400, 401, 404, 409) },
    handler: async ({ app, auth, params }) => ({
      structured_data: (await getSessionContent(app, auth, params.ambient_session_id)).structured_data,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: `${S}/encounter-content`,
    summary: "Content of this session's encounter (cumulative over its completed sessions)",
    tags,
    auth: 'service',
    params: SessionIdParams,
    responses: { 200: { description: 'content', schema: ContentResponse }, ...errors(400, 401, 404, 409) },
    handler: async ({ app, auth, params }) => {
      const s = await getOwnedSession(app, auth, params.ambient_session_id);
      return getEncounterContent(app, auth, s.encounterId);
    },
  }),
  defineRoute({
    method: 'GET',
    path: `${S}/encounter-structured-data`,
    summary: "Structured data of this session's encounter (cumulative over its completed sessions)",
    tags,
    auth: 'service',
    params: SessionIdParams,
    responses: { 200: { description: 'structured data', schema: StructuredDataResponse }, ...errors(400, 401, 404, 409) },
    handler: async ({ app, auth, params }) => {
      const s = await getOwnedSession(app, auth, params.ambient_session_id);
      return { structured_data: (await getEncounterContent(app, auth, s.encounterId)).structured_data };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/ambient/encounter/{encounter_id}/content',
    summary: 'Encounter content (cumulative over its completed sessions)',
    tags,
    auth: 'service',
    params: EncounterIdParams,
    responses: { 200: { description: 'content', schema: ContentResponse }, ...errors(400, 401, 404, 409) },
    handler: ({ app, auth, params }) => getEncounterContent(app, auth, params.encounter_id),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/ambient/encounter/{encounter_id}/structured-data',
    summary: 'Encounter structured data (cumulative over its completed sessions)',
    tags,
    auth: 'service',
    params: EncounterIdParams,
    responses: { 200: { description: 'structured data', schema: StructuredDataResponse }, ...errors(400, 401, 404, 409) },
    handler: async ({ app, auth, params }) => ({ structured_data: (await getEncounterContent(app, auth, params.encounter_id)).structured_data }),
  }),
  defineRoute({
    method: 'GET',
    path: `${S}/recording`,
    summary: 'Recordings of the session with signed, expiring audio URLs',
    tags,
    auth: 'service',
    params: SessionIdParams,
    query: RecordingQuery,
    responses: { 200: { description: 'recordings', schema: RecordingListResponse }, ...errors(400, 401, 404) },
    handler: ({ app, auth, params, query }) => listRecordings(app, auth, params.ambient_session_id, query.download === true),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/recordings/{recording_id}/audio',
    summary: 'Recording audio as WAV (the signed URL from the recording list; supports Range)',
    description: 'The signature in the query is the authorisation: no token header is needed, and a bad or expired signature is 403.',
    tags,
    auth: 'none',
    params: RecordingAudioParams,
    query: RecordingAudioQuery,
    responses: {
      200: { description: 'the whole recording', contentType: 'audio/wav' },
      206: { description: 'the requested byte range', contentType: 'audio/wav' },
      ...errors(400, 403, 404),
      416: { description: 'range not satisfiable' },
    },
    handler: ({ app, params, query, req }) => serveRecordingAudio(app, params.recording_id, query, req.headers.get('range')),
  }),
];
