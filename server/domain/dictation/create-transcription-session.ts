import type { AudioConfig, CreateTranscriptionSessionResponse } from '@/lib/contracts/dictation';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { transcriptionSessions } from '../../db/schema';

/** A dictation session: the audio format agreed for /ws/transcribe, owned by the calling provider. */
export async function createTranscriptionSession(app: AppContext, auth: ServicePrincipal, audioConfig: AudioConfig): Promise<CreateTranscriptionSessionResponse> {
  const [row] = await tenantDb(app, auth).insert(transcriptionSessions, { partnerId: auth.partnerId, providerId: auth.providerId, audioConfig });
  return { transcription_session_id: row!.id };
}
