import { defineContract } from '@/lib/api/contract';
import { SessionIdParams } from '@/lib/contracts/sessions';
import { CreateUploadRequest, UploadChunkQuery, UploadParams, UploadStatus } from '@/lib/contracts/uploads';

const UPLOADS = '/api/v1/ambient/session/{ambient_session_id}/uploads';
const tags = ['Ambient sessions'];

export const createUpload = defineContract({
  method: 'POST',
  path: UPLOADS,
  summary: 'Start uploading a recording of the visit',
  description:
    'For audio recorded elsewhere (WAV, MP3, M4A/AAC, WebM/Opus, Ogg/Opus, FLAC). Send the bytes with PUT …/uploads/{upload_id}?offset=N in chunks of at most max_chunk_bytes; the last chunk decodes the file into the session\'s audio and ends capture, as the stream\'s EOF does. An unsupported content_type is 415.',
  tags,
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: CreateUploadRequest,
  status: 201,
  responses: { 201: { description: 'upload started', schema: UploadStatus } },
  errors: ['not_found', 'conflict', 'unsupported_media_type'],
});

export const putUploadChunk = defineContract({
  method: 'PUT',
  path: `${UPLOADS}/{upload_id}`,
  summary: 'Send one chunk of an uploaded recording',
  description:
    'The body is the file\'s bytes from offset (application/octet-stream). An offset other than the upload\'s current one is 409 (GET the upload to resume from where it stands). The chunk that completes the file is answered once the file is decoded and stored: 415 when it is not audio of an accepted format, 422 when it is but cannot be decoded.',
  tags,
  auth: 'service',
  write: true,
  params: UploadParams,
  query: UploadChunkQuery,
  rawBody: { contentType: 'application/octet-stream', description: 'the file\'s bytes from offset' },
  responses: { 200: { description: 'chunk stored; state complete once the last one is decoded', schema: UploadStatus } },
  errors: ['not_found', 'conflict', 'payload_too_large', 'unsupported_media_type', 'unprocessable_content', 'unavailable'],
});

export const getUpload = defineContract({
  method: 'GET',
  path: `${UPLOADS}/{upload_id}`,
  summary: 'An upload\'s progress: the offset to resume from, or its outcome',
  tags,
  auth: 'service',
  params: UploadParams,
  responses: { 200: { description: 'the upload', schema: UploadStatus } },
  errors: ['not_found'],
});
