/**
 * Webhook contracts: the notification bodies the service sends (spec "Events"), and the admin API's
 * view of the delivery outbox. Plain zod so the console and the OpenAPI document share them.
 */
import { z } from 'zod';
import { PartnerId } from './partners';
import { ReviewDecision, ReviewItemKind } from './note-review';

export const WebhookLink = z.object({ method: z.literal('GET'), href: z.string(), name: z.string() }).meta({ id: 'WebhookLink' });
export type WebhookLink = z.infer<typeof WebhookLink>;

export const WEBHOOK_LINK_KEYS = [
  'contents',
  'encounter_content',
  'structured_data',
  'encounter_structured_data',
  'section_structured_data',
  'encounter_section_structured_data',
  'transcripts',
  'status',
  // Extension (DESIGN §12): the FHIR R4 export of the session and its encounter. Additive; the spec's keys are unchanged.
  'fhir',
] as const;
export type WebhookLinkKey = (typeof WEBHOOK_LINK_KEYS)[number];

export const SessionSuccessPayload = z
  .object({
    status: z.literal('SUCCESS'),
    session_id: z.uuid(),
    encounter_id: z.uuid(),
    sessions: z.array(z.uuid()),
    additional_info: z.record(z.string(), z.unknown()).optional(),
    _links: z.object(Object.fromEntries(WEBHOOK_LINK_KEYS.map((k) => [k, z.array(WebhookLink)])) as Record<WebhookLinkKey, z.ZodArray<typeof WebhookLink>>),
  })
  .meta({ id: 'SessionSuccessNotification' });
export type SessionSuccessPayload = z.infer<typeof SessionSuccessPayload>;

export const SessionFailurePayload = z
  .object({
    status: z.literal('FAILURE'),
    session_id: z.uuid(),
    encounter_id: z.uuid(),
    // The spec leaves the list open. A skipped session (too little audio or an empty transcript) ends
    // without a note, so it is a FAILURE too, with SKIPPED_INSUFFICIENT_AUDIO.
    error_code: z.string().meta({ description: 'SKIPPED_INSUFFICIENT_AUDIO, PROCESSING_FAILED, TRANSCRIPTION_FAILED or NOTE_GENERATION_FAILED' }),
    error_detail: z.string(),
  })
  .meta({ id: 'SessionFailureNotification' });
export type SessionFailurePayload = z.infer<typeof SessionFailurePayload>;

export const CkgState = z.enum(['COMPLETED', 'FAILED', 'ABORTED']);
export const CkgPayload = z
  .object({
    state: CkgState,
    transaction_id: z.string(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({ id: 'CkgNotification' });
export type CkgPayload = z.infer<typeof CkgPayload>;

/**
 * Extension, sent only to partners that opted in (notify_note_signed): a clinician signed a note
 * (first signature: note_status signed; signature after an amendment: amended). A receiver built only
 * to the spec answers 400 to this status, which is why it is opt-in.
 */
export const NoteSignedPayload = z
  .object({
    status: z.literal('NOTE_SIGNED'),
    session_id: z.uuid(),
    encounter_id: z.uuid(),
    note_status: z.enum(['signed', 'amended']),
    signed_at: z.string(),
    /** 1 for the first signature, 2 after one amendment, and so on. */
    version: z.number().int().min(1),
    /** Additive (issue 27): the review the signer went through, when the signature carried one; the items' text is in the note history. */
    review: z
      .object({
        attested: z.literal(true),
        items: z.array(z.object({ id: z.string(), kind: ReviewItemKind, loinc_code: z.string().nullable(), decision: ReviewDecision })),
      })
      .optional(),
    _links: z.object({
      contents: z.array(WebhookLink),
      note_history: z.array(WebhookLink),
      visit_summary: z.array(WebhookLink),
      status: z.array(WebhookLink),
    }),
  })
  .meta({ id: 'NoteSignedNotification' });
export type NoteSignedPayload = z.infer<typeof NoteSignedPayload>;

export type WebhookPayload = SessionSuccessPayload | SessionFailurePayload | CkgPayload | NoteSignedPayload;

export const WEBHOOK_EVENT_TYPES = ['session.success', 'session.failure', 'ckg', 'test', 'note.signed'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

// ---------------------------------------------------------------------------------------------
// Admin API
// ---------------------------------------------------------------------------------------------

export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    partner_id: z.string(),
    session_id: z.uuid().nullable(),
    event_type: z.string(),
    event_key: z.string(),
    url: z.string(),
    status: DeliveryStatus,
    attempts: z.number().int(),
    last_response_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    next_attempt_at: z.string().nullable().describe('when the next retry is due (pending deliveries only)'),
    delivered_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookAttempt = z
  .object({
    attempt: z.number().int(),
    at: z.string(),
    url: z.string().nullable(),
    request_headers: z.record(z.string(), z.string()),
    response_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  body: z.string().describe('the exact request body sent (the signature covers these bytes)'),
  payload: z.unknown().describe('the body, parsed'),
  attempts_log: z.array(WebhookAttempt),
}).meta({ id: 'WebhookDeliveryDetail' });
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const ListDeliveriesQuery = z.object({
  partner_id: PartnerId.optional(),
  session_id: z.uuid({ message: 'must be a UUID' }).optional(),
  status: DeliveryStatus.optional(),
  event_type: WebhookEventType.optional(),
  limit: z.coerce.number().int('must be an integer').min(1, 'must be at least 1').max(200, 'must be at most 200').default(50),
  cursor: z.string().max(200).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export const WebhookDeliveryList = z
  .object({ deliveries: z.array(WebhookDelivery), next_cursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryList' });

export const TestWebhookResult = z
  .object({
    delivered: z.boolean(),
    response_code: z.number().int().nullable(),
    error: z.string().nullable(),
    delivery: WebhookDelivery,
  })
  .meta({ id: 'TestWebhookResult' });
export type TestWebhookResult = z.infer<typeof TestWebhookResult>;
