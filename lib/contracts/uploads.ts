/**
 * Uploaded recordings: a visit's audio sent as a file (a phone recording, a dictation) instead of a stream.
 * An upload is created with its size, its bytes are sent in chunks at increasing offsets (each chunk one
 * PUT no larger than max_chunk_bytes, so an interrupted upload resumes from the offset it reports), and the
 * last chunk decodes the file into the session's audio and ends the session, as a stream's EOF does.
 */
import { z } from 'zod';
import { Uuid } from './common';

/** The containers and codecs accepted, by the name the API uses for each. */
export const UPLOAD_FORMATS = ['wav', 'mp3', 'm4a', 'aac', 'webm', 'ogg', 'flac'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

/** Declared media types accepted at creation, and the format each announces. */
export const UPLOAD_MEDIA_TYPES: Record<string, UploadFormat> = {
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'm4a',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/aac': 'aac',
  'audio/x-aac': 'aac',
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
};

/** What the upload control offers in the file picker. */
export const UPLOAD_ACCEPT = ['.wav', '.mp3', '.m4a', '.aac', '.webm', '.ogg', '.opus', '.flac', ...Object.keys(UPLOAD_MEDIA_TYPES)].join(',');

/** The largest file accepted (an hours-long visit in WAV fits). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

export const UploadParams = z.object({ ambient_session_id: Uuid, upload_id: Uuid });

export const CreateUploadRequest = z
  .object({
    size: z
      .number({ error: 'must be the file size in bytes' })
      .int({ error: 'must be a whole number of bytes' })
      .min(1, { error: 'must be at least 1 byte' })
      .max(MAX_UPLOAD_BYTES, { error: `must be at most ${MAX_UPLOAD_BYTES} bytes` }),
    content_type: z.string({ error: 'must be the file\'s media type, e.g. audio/mpeg' }).max(100, { error: 'must be at most 100 characters' }),
    filename: z.string().max(255, { error: 'must be at most 255 characters' }).optional(),
  })
  .meta({ id: 'CreateUploadRequest' });
export type CreateUploadRequest = z.infer<typeof CreateUploadRequest>;

export const UploadChunkQuery = z.object({
  offset: z
    .string({ error: 'must be the byte offset of this chunk' })
    .regex(/^\d{1,12}$/, { error: 'must be a non-negative whole number of bytes' })
    .transform(Number),
});

export const UploadState = z.enum(['receiving', 'complete', 'failed']);
export type UploadState = z.infer<typeof UploadState>;

export const UploadStatus = z
  .object({
    upload_id: z.uuid(),
    ambient_session_id: z.uuid(),
    /** Bytes received so far: the offset of the next chunk. */
    offset: z.number().int(),
    size: z.number().int(),
    /** The largest chunk one PUT may carry. */
    max_chunk_bytes: z.number().int(),
    state: UploadState,
    /** The recording the file became, once complete. */
    recording_id: z.uuid().optional(),
    /** Decoded audio length, once complete. */
    audio_ms: z.number().int().optional(),
    /** Why decoding failed, when failed ({code, message} as the failing PUT answered). */
    error: z.object({ code: z.number().int(), message: z.string() }).optional(),
  })
  .meta({ id: 'UploadStatus' });
export type UploadStatus = z.infer<typeof UploadStatus>;
