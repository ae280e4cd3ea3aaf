import { z } from 'zod';

/**
 * The wire protocol of /ws/ambient and /ws/transcribe (docs/streaming.md), shared by the server, the browser
 * recorder, scripts/, bench/ and the tests. Browser-safe: no Node APIs.
 */

export { AUDIO_FORMAT, BYTES_PER_MS, BYTES_PER_SAMPLE, bytesToMs, SAMPLE_RATE_HZ } from './audio-format';

/** Base64 of the ASCII bytes "EOF": the data of the last AUDIO frame of a recording. */
export const EOF_MARKER = 'RU9G';

/** Browsers cannot set headers on a WebSocket: they offer `AmbientAuth, <id>, <token>[, <provider_id>]` as subprotocols. */
export const AUTH_PROTOCOL = 'AmbientAuth';

export const AMBIENT_EVENTS = ['KEEP_ALIVE', 'PAUSE', 'RESUME', 'CANCEL', 'ABORT'] as const;
export const TRANSCRIBE_EVENTS = ['AUDIO_END', 'KEEP_ALIVE', 'CANCEL', 'ABORT'] as const;
export type AmbientEvent = (typeof AMBIENT_EVENTS)[number];
export type TranscribeEvent = (typeof TRANSCRIBE_EVENTS)[number];

/**
 * Why a recording part other than a session's first began after a stretch nothing recorded (START_TIME's
 * optional `reason`, docs/streaming.md): the clinician paused (PAUSED); the recording page was reloaded or
 * reopened and recording continued from it (PAGE_RELOADED); the device delivered no sound from the microphone
 * for a while, its audio thread stalled (CAPTURE_STALLED); the microphone was disconnected and recording was
 * started again (MICROPHONE_DISCONNECTED). The transcript's `recording_gaps[].cause` is the reason of the part
 * after the gap. Additive: older clients send none.
 */
export const PART_START_REASONS = ['PAUSED', 'PAGE_RELOADED', 'CAPTURE_STALLED', 'MICROPHONE_DISCONNECTED'] as const;
export type PartStartReason = (typeof PART_START_REASONS)[number];
export const isPartStartReason = (v: unknown): v is PartStartReason => (PART_START_REASONS as readonly unknown[]).includes(v);

/** Text frames from the client; binary frames are raw PCM in AUDIO_FORMAT. */
export const ClientFrame = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('START_TIME'), data: z.string({ error: 'data must be a base64 string' }), reason: z.enum(PART_START_REASONS).optional() }),
    z.object({ type: z.literal('AUDIO'), data: z.string({ error: 'data must be a base64 string' }) }),
    z.object({ type: z.literal('EVENT'), event: z.string({ error: 'event must be a string' }) }),
  ],
  { error: 'type must be one of START_TIME, AUDIO, EVENT' },
);
export type ClientFrame = z.infer<typeof ClientFrame>;

/** The frame that ends a recording (ambient) or the whole stream (transcribe). */
export const EOF_FRAME: ClientFrame = { type: 'AUDIO', data: EOF_MARKER };
export const eventFrame = (event: AmbientEvent | TranscribeEvent): ClientFrame => ({ type: 'EVENT', event });

export const ServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ACK'), received_ms: z.number(), session_ms: z.number().optional() }),
  z.object({
    type: z.literal('TRANSCRIPT'),
    is_final: z.boolean(),
    transcript_id: z.string().optional(),
    text: z.string(),
    start_offset_ms: z.number(),
    end_offset_ms: z.number(),
    speaker: z.string().optional(),
    utterance_end: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('STATUS'),
    status: z.string(),
    paused: z.boolean().optional(),
    recording_id: z.string().optional(),
    sequence_number: z.number().optional(),
  }),
  z.object({ type: z.literal('ERROR'), code: z.number(), message: z.string() }),
  /** Speaker roles of final lines already sent, as the live pass learns or revises them (additive: older clients ignore it). */
  z.object({ type: z.literal('SPEAKERS'), labels: z.array(z.object({ transcript_id: z.string(), speaker: z.string() })) }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

/** A server frame from its JSON text, or null for anything that is not one (a newer server's frame type). */
export function parseServerFrame(text: string): ServerFrame | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ServerFrame.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Close codes: the standard ones, and 4000 + the HTTP status the same failure has on the REST API. */
export const CLOSE = {
  NORMAL: 1000,
  /** Server restarting: the session stays open for a reconnect. */
  GOING_AWAY: 1001,
  INTERNAL_ERROR: 1011,
  /** Used by clients and tests to drop a connection the way a network failure would. */
  DROPPED: 4000,
  UNAUTHORISED: 4401,
  FORBIDDEN: 4403,
  NOT_FOUND: 4404,
  IDLE: 4408,
  CONFLICT: 4409,
  TOO_LARGE: 4413,
  TOO_FAST: 4429,
} as const;

/** The close code of a refusal with this HTTP status. */
export const closeCodeForStatus = (status: number): number => 4000 + status;

/** The HTTP-like code of the ERROR frame that precedes a close with this code. */
export const statusForCloseCode = (code: number): number => (code >= 4000 ? code - 4000 : code === CLOSE.GOING_AWAY ? 503 : 500);
