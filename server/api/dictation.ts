import * as contract from '@/lib/contracts/routes/dictation';
import { bindRoute, StatusReply } from '../http/route';
import { createTranscriptionSession } from '../domain/dictation/create-transcription-session';

export const dictationRoutes = [
  bindRoute(contract.createTranscriptionSession, async ({ app, auth, body }) => new StatusReply(201, await createTranscriptionSession(app, auth, body.audio_config))),
];
