import { defineContract } from '@/lib/api/contract';
import { CreateSessionRequest, CreateSessionResponse, EncounterIdParams, SessionIdParams, SessionMetadataRequest, SessionStatusResponse } from '@/lib/contracts/sessions';
import { ContextResponse, PatchContextRequest, SetContextRequest } from '@/lib/contracts/session-context';
import { ContentResponse, StructuredDataResponse, TranscriptResponse } from '@/lib/contracts/session-content';
import { RecordingAudioParams, RecordingAudioQuery, RecordingListResponse, RecordingQuery } from '@/lib/contracts/recordings';

const SESSION_PATH = '/api/v1/ambient/session/{ambient_session_id}';
const tags = ['Ambient sessions'];

export const createSession = defineContract({
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
  responses: { 201: { description: 'created', schema: CreateSessionResponse } },
  errors: ['conflict'],
});

export const setSessionContext = defineContract({
  method: 'POST',
  path: `${SESSION_PATH}/context`,
  summary: 'Set (replace) the session context',
  tags,
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: SetContextRequest,
  responses: { 200: { description: 'the stored context', schema: ContextResponse } },
  errors: ['not_found', 'conflict'],
});

export const patchSessionContext = defineContract({
  method: 'PATCH',
  path: `${SESSION_PATH}/context`,
  summary: 'Merge into the session context',
  description: 'Objects merge member by member, arrays replace, null removes a member (JSON merge patch).',
  tags,
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: PatchContextRequest,
  responses: { 200: { description: 'the merged context', schema: ContextResponse } },
  errors: ['not_found', 'conflict'],
});

export const getSessionContext = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/context`,
  summary: 'Read the session context',
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'the context', schema: ContextResponse } },
  errors: ['not_found'],
});

export const setSessionMetadata = defineContract({
  method: 'POST',
  path: `${SESSION_PATH}/metadata`,
  summary: 'Set session metadata (deprecated: use context)',
  tags,
  deprecated: true,
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: SessionMetadataRequest,
  optionalBody: true,
  responses: { 200: { description: 'stored (no body)' } },
  errors: ['not_found', 'conflict'],
});

export const endSession = defineContract({
  method: 'POST',
  path: `${SESSION_PATH}/end`,
  summary: 'End audio capture (same as the stream EOF) and start processing',
  tags,
  auth: 'service',
  write: true,
  params: SessionIdParams,
  responses: { 200: { description: 'processing', schema: SessionStatusResponse } },
  errors: ['not_found', 'conflict'],
});

export const getSessionStatus = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/status`,
  summary: 'Session status',
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'status', schema: SessionStatusResponse } },
  errors: ['not_found'],
});

export const getTranscript = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/transcript`,
  summary: 'Session transcript',
  description: 'After completion, the final transcript; before it, the final live segments so far.',
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'transcript', schema: TranscriptResponse } },
  errors: ['not_found'],
});

export const getSessionContent = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/content`,
  summary: 'Session content: note sections and structured data',
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'content', schema: ContentResponse } },
  errors: ['not_found', 'conflict'],
});

export const getSessionContentDeprecated = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/content/{ambient_session_id}',
  summary: 'Session content (deprecated: use /api/v1/ambient/session/{ambient_session_id}/content)',
  tags,
  deprecated: true,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'content', schema: ContentResponse } },
  errors: ['not_found', 'conflict'],
});

export const getSessionStructuredData = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/structured-data`,
  summary: 'Session structured data',
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'structured data', schema: StructuredDataResponse } },
  errors: ['not_found', 'conflict'],
});

export const getSessionEncounterContent = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/encounter-content`,
  summary: "Content of this session's encounter (cumulative over its completed sessions)",
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'content', schema: ContentResponse } },
  errors: ['not_found', 'conflict'],
});

export const getSessionEncounterStructuredData = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/encounter-structured-data`,
  summary: "Structured data of this session's encounter (cumulative over its completed sessions)",
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'structured data', schema: StructuredDataResponse } },
  errors: ['not_found', 'conflict'],
});

export const getEncounterContent = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/encounter/{encounter_id}/content',
  summary: 'Encounter content (cumulative over its completed sessions)',
  tags,
  auth: 'service',
  params: EncounterIdParams,
  responses: { 200: { description: 'content', schema: ContentResponse } },
  errors: ['not_found', 'conflict'],
});

export const getEncounterStructuredData = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/encounter/{encounter_id}/structured-data',
  summary: 'Encounter structured data (cumulative over its completed sessions)',
  tags,
  auth: 'service',
  params: EncounterIdParams,
  responses: { 200: { description: 'structured data', schema: StructuredDataResponse } },
  errors: ['not_found', 'conflict'],
});

export const listRecordings = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/recording`,
  summary: 'Recordings of the session with signed, expiring audio URLs',
  tags,
  auth: 'service',
  params: SessionIdParams,
  query: RecordingQuery,
  responses: { 200: { description: 'recordings', schema: RecordingListResponse } },
  errors: ['not_found'],
});

export const getRecordingAudio = defineContract({
  method: 'GET',
  path: '/api/v1/recordings/{recording_id}/audio',
  summary: 'Recording audio as WAV (the signed URL from the recording list; supports Range)',
  description: 'The signature in the query is the authorisation: no token header is needed, and a bad or expired signature is 403.',
  tags,
  auth: 'none',
  params: RecordingAudioParams,
  query: RecordingAudioQuery,
  responses: { 200: { description: 'the whole recording', contentType: 'audio/wav' }, 206: { description: 'the requested byte range', contentType: 'audio/wav' } },
  errors: ['forbidden', 'not_found', 'range_not_satisfiable'],
});
