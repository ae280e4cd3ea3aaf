import { defineContract } from '@/lib/api/contract';
import { CreateTranscriptionSessionRequest, CreateTranscriptionSessionResponse } from '@/lib/contracts/dictation';

export const createTranscriptionSession = defineContract({
  method: 'POST',
  path: '/api/v1/transcription/session/create',
  summary: 'Create a dictation session for /ws/transcribe',
  description:
    'audio_encoding must be LINEAR16 and sample_rate_hertz 16000 (mono). Then open /ws/transcribe with the subprotocol list ' +
    '`AmbientAuth, <transcription_session_id>, <service_token>` (or headers sdp_service_token and transcription_session_id), ' +
    'send AUDIO frames, and EVENT AUDIO_END to get the final text of an utterance.',
  tags: ['Dictation'],
  auth: 'service',
  write: true,
  body: CreateTranscriptionSessionRequest,
  status: 201,
  responses: { 201: { description: 'created', schema: CreateTranscriptionSessionResponse } },
});
