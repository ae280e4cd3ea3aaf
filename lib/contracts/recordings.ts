/** Recording lists with signed, expiring audio URLs, and the audio route's signed query. */
import { z } from 'zod';
import { Uuid } from './common';

// ---------------------------------------------------------------------------------------------
// Recordings
// ---------------------------------------------------------------------------------------------

const BooleanQuery = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const RecordingQuery = z.object({ download: BooleanQuery.optional() });

export const RecordingItem = z
  .object({ recording_id: z.uuid(), presigned_url: z.string(), expires_at: z.string(), sequence_number: z.number().int() })
  .meta({ id: 'Recording' });

export const RecordingListResponse = z
  .object({
    recordings: z.array(RecordingItem),
    /** True while the session is still capturing audio: the recording keeps growing. */
    is_streamable: z.boolean(),
  })
  .meta({ id: 'RecordingListResponse' });
export type RecordingListResponse = z.infer<typeof RecordingListResponse>;

export const RecordingAudioParams = z.object({ recording_id: Uuid });
/** Checked by the handler rather than here: any malformed or missing signature part is a 403, like a wrong one. */
export const RecordingAudioQuery = z.object({
  expires: z.string().max(32).optional(),
  sig: z.string().max(256).optional(),
  download: z.string().max(8).optional(),
});
