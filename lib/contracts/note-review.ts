/**
 * The review before signing (issue 27 item 7): what needs the signer's decision, and the outcome they sign
 * with. Shared by the handlers, OpenAPI, the NOTE_SIGNED payload and the app.
 */
import { z } from 'zod';

export const REVIEW_ITEM_KINDS = ['LOW_CONFIDENCE', 'UNSUPPORTED', 'NOT_UNDERSTOOD', 'CONTRADICTION', 'NO_EVIDENCE', 'EDITED_SECTION', 'NOT_RECORDED', 'IMPLAUSIBLE_DOSE'] as const;
export const ReviewItemKind = z
  .enum(REVIEW_ITEM_KINDS, { error: `must be one of ${REVIEW_ITEM_KINDS.join(', ')}` })
  .describe(
    'LOW_CONFIDENCE: words the recogniser was unsure of, left out of the note; UNSUPPORTED: a fact removed because the visit does not say it; ' +
      'NOT_UNDERSTOOD: an answer to the allergy question that was heard but could not be read as an allergy or as none, or a dose said for a drug in words that could not be read as an order; ' +
      'CONTRADICTION: note text that differs from a coded order; NO_EVIDENCE: a sentence, diagnosis or order no transcript line supports; ' +
      'EDITED_SECTION: a section changed since the note was generated; ' +
      'NOT_RECORDED: a stretch of the visit no recording holds (the transcript\'s recording_gaps), so nothing said then is in the note; ' +
      'IMPLAUSIBLE_DOSE (additive): a coded medication order whose dose is implausible for its drug (a unit the drug is not dosed in, far outside its labelled range, e.g. 10 g of lisinopril, a daily total over the labelled maximum through its frequency, e.g. metformin 1000 mg four times a day, or a once-a-week drug ordered more often, e.g. methotrexate 15 mg daily), from a curated table of common drugs; drugs not in the table are not checked',
  );
export type ReviewItemKind = z.infer<typeof ReviewItemKind>;

export const ReviewDecision = z
  .enum(['RESOLVED', 'ACKNOWLEDGED'], { error: 'must be RESOLVED or ACKNOWLEDGED' })
  .describe('RESOLVED: the signer changed the note for it; ACKNOWLEDGED: the signer read it and signs the note as it is');
export type ReviewDecision = z.infer<typeof ReviewDecision>;

export const NoteReviewItem = z
  .object({
    /** Stable for the same kind, section and text, so a decision survives a reload of the list. */
    id: z.string(),
    kind: ReviewItemKind,
    /** The words in question: the span left out, the sentence, or the section's title. */
    text: z.string(),
    /** Why it needs a decision, in words for the signer. */
    detail: z.string(),
    loinc_code: z.string().nullable(),
    section_title: z.string().nullable(),
    source_transcripts: z.array(z.string()),
  })
  .meta({ id: 'NoteReviewItem' });
export type NoteReviewItem = z.infer<typeof NoteReviewItem>;

/** The sentence the signer confirms; stored with the outcome as it was shown. */
export const NOTE_ATTESTATION =
  'I have reviewed this note and every item listed, and I attest that the note accurately reflects this visit and the care I provided.';

export const NoteReviewResponse = z
  .object({
    ambient_session_id: z.uuid(),
    /** Empty when nothing needs a decision; the attestation is still confirmed. */
    items: z.array(NoteReviewItem),
    attestation: z.string(),
  })
  .meta({ id: 'NoteReviewResponse' });
export type NoteReviewResponse = z.infer<typeof NoteReviewResponse>;

export const ReviewItemDecision = z.object({
  id: z.string({ error: 'is required' }).min(1, 'is required').max(64, 'must be at most 64 characters'),
  kind: ReviewItemKind,
  text: z.string({ error: 'is required' }).max(4000, 'must be at most 4000 characters'),
  loinc_code: z.string().max(20, 'must be at most 20 characters').nullable().optional(),
  decision: ReviewDecision,
});
export type ReviewItemDecision = z.infer<typeof ReviewItemDecision>;

export const ReviewOutcomeInput = z
  .object({
    attested: z.literal(true, { error: 'must be true: the signer confirms the attestation sentence' }),
    /** Every item of GET …/note/review, as listed, with its decision; an item resolved by an edit that is no longer listed may stay. */
    items: z.array(ReviewItemDecision, { error: 'must be an array' }).max(500, 'must hold at most 500 items'),
  })
  .meta({ id: 'NoteReviewOutcomeInput' });
export type ReviewOutcomeInput = z.infer<typeof ReviewOutcomeInput>;

export const SignNoteRequest = z
  .object({
    review: ReviewOutcomeInput.optional().describe(
      'Additive: the review outcome. When given, every item the review lists must have a decision and the attestation must be confirmed (400 naming the field); without it the note is signed as before',
    ),
  })
  .meta({ id: 'SignNoteRequest' });
export type SignNoteRequest = z.infer<typeof SignNoteRequest>;

/** The review as signed: kept in the note history with the signature. */
export const NoteReviewOutcome = z
  .object({
    attestation: z.string(),
    items: z.array(
      z.object({ id: z.string(), kind: ReviewItemKind, text: z.string(), loinc_code: z.string().nullable(), decision: ReviewDecision }),
    ),
  })
  .meta({ id: 'NoteReviewOutcome' });
export type NoteReviewOutcome = z.infer<typeof NoteReviewOutcome>;
