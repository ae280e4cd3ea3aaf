import { z } from 'zod';
import { SAMPLE_RATE_HZ } from './stream-protocol';

/**
 * Dictation takes LINEAR16 (PCM16 LE) mono at 16 kHz, the rate the recognisers run at. Other rates are
 * refused rather than resampled per frame: resampling 100 ms pieces independently puts an edge artefact
 * in every frame, which costs recognition accuracy the client could avoid by capturing at 16 kHz.
 */
export const DICTATION_SAMPLE_RATE = SAMPLE_RATE_HZ;

export const AudioConfig = z.object({
  audio_encoding: z.literal('LINEAR16', { error: 'must be LINEAR16' }),
  audio_language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en-US')
    .default('en-US'),
  sample_rate_hertz: z
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .refine((n) => n === DICTATION_SAMPLE_RATE, `must be ${DICTATION_SAMPLE_RATE}; capture or resample audio to 16 kHz mono`),
});
export type AudioConfig = z.infer<typeof AudioConfig>;

export const CreateTranscriptionSessionRequest = z.object({ audio_config: AudioConfig }).meta({ id: 'CreateTranscriptionSessionRequest' });
export type CreateTranscriptionSessionRequest = z.infer<typeof CreateTranscriptionSessionRequest>;

export const CreateTranscriptionSessionResponse = z
  .object({ transcription_session_id: z.uuid() })
  .meta({ id: 'CreateTranscriptionSessionResponse' });
export type CreateTranscriptionSessionResponse = z.infer<typeof CreateTranscriptionSessionResponse>;
