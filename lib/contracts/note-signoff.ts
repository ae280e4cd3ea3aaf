/**
 * Note sign-off contracts: sign, amend with a reason, and the note's history (every section edit with
 * who, when, before and after, plus each sign and amend), in pages. Shared by the handlers, OpenAPI and the app.
 */
import { z } from 'zod';
import { NoteStatus } from './note-status';
import { SummarySection } from './sessions';
import { NoteReviewOutcome } from './note-review';

export const AmendNoteRequest = z
  .object({
    reason: z
      .string({ error: 'is required' })
      .trim()
      .min(3, 'must say why the signed note is amended (at least 3 characters)')
      .max(1000, 'must be at most 1000 characters'),
  })
  .meta({ id: 'AmendNoteRequest' });
export type AmendNoteRequest = z.infer<typeof AmendNoteRequest>;

export const NoteActor = z.object({ provider_id: z.uuid().nullable(), name: z.string().nullable() }).meta({ id: 'NoteActor' });
export type NoteActor = z.infer<typeof NoteActor>;

export const NoteSignoffState = z
  .object({
    ambient_session_id: z.uuid(),
    note_status: NoteStatus,
    /** When the note was last signed, or null if never. */
    signed_at: z.string().nullable(),
    signed_by: NoteActor.nullable(),
    /** True while signed: section edits answer 409 until the note is amended. */
    locked: z.boolean(),
  })
  .meta({ id: 'NoteSignoffState' });
export type NoteSignoffState = z.infer<typeof NoteSignoffState>;

export const NoteEditEvent = z.object({
  type: z.literal('edit'),
  at: z.string(),
  by: NoteActor,
  loinc_code: z.string(),
  title: z.string().nullable(),
  before: z.string(),
  after: z.string(),
});
export const NoteSignEvent = z.object({
  type: z.literal('sign'),
  at: z.string(),
  by: NoteActor,
  /** The note exactly as it was signed. */
  summary: z.array(SummarySection),
  /** Additive (issue 27): the review the signer went through (items, decisions, attestation); absent for a signature sent without one. */
  review: NoteReviewOutcome.optional(),
});
export const NoteAmendEvent = z.object({ type: z.literal('amend'), at: z.string(), by: NoteActor, reason: z.string() });
/**
 * Additive (issue 29): a change of the note's coded data (a diagnosis, medication order, allergy or lab/imaging
 * order added, changed or removed), with the item before and after, as GET …/structured-data/history lists it.
 */
export const NoteStructuredDataEvent = z.object({
  type: z.literal('structured_data'),
  at: z.string(),
  by: NoteActor,
  kind: z.enum(['diagnoses', 'medication_orders', 'allergies', 'service_orders']),
  action: z.enum(['add', 'edit', 'remove']),
  position: z.number().int(),
  before: z.unknown().describe('the item before the change; null for an add'),
  after: z.unknown().describe('the item after the change; null for a removal'),
});

export const NoteHistoryEvent = z
  .discriminatedUnion('type', [NoteEditEvent, NoteSignEvent, NoteAmendEvent, NoteStructuredDataEvent])
  .meta({ id: 'NoteHistoryEvent' });
export type NoteHistoryEvent = z.infer<typeof NoteHistoryEvent>;

export const NoteHistoryResponse = NoteSignoffState.extend({
  /** Oldest first (newest first with order=desc). */
  events: z.array(NoteHistoryEvent),
  next_cursor: z.string().nullable().describe('pass as cursor (with the same order) for the next page; null on the last page'),
}).meta({ id: 'NoteHistoryResponse' });
export type NoteHistoryResponse = z.infer<typeof NoteHistoryResponse>;

/**
 * Without limit a page holds 100 events: a whole history in the usual case, since the edits of one burst are
 * one version, so a client written before paging still gets everything it used to for such a note.
 */
export const NOTE_HISTORY_DEFAULT_LIMIT = 100;
export const NOTE_HISTORY_MAX_LIMIT = 200;
/** A page also stops once its text (before + after, signed notes, reasons) passes this many characters. */
export const NOTE_HISTORY_PAGE_CHARS = 2_000_000;

export const NoteHistoryQuery = z
  .object({
    limit: z.coerce
      .number()
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(NOTE_HISTORY_MAX_LIMIT, `must be at most ${NOTE_HISTORY_MAX_LIMIT}`)
      .default(NOTE_HISTORY_DEFAULT_LIMIT),
    cursor: z.string().max(400, 'must be at most 400 characters').optional(),
    order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).default('asc'),
  })
  .meta({ id: 'NoteHistoryQuery' });
export type NoteHistoryQuery = z.infer<typeof NoteHistoryQuery>;
