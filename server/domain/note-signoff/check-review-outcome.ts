import { badRequest } from '@/lib/errors';
import { NOTE_ATTESTATION, type NoteReviewItem, type NoteReviewOutcome, type ReviewOutcomeInput } from '@/lib/contracts/note-review';
import { reviewItemId } from './review-item-id';

/**
 * The review outcome to keep with a signature, once it covers the review as it stands: every listed item
 * has a decision, and each decision names its item by the id of its kind, section and text (an item
 * resolved by an edit is no longer listed and is kept as the signer decided it). 400 naming the field.
 */
export function checkReviewOutcome(input: ReviewOutcomeInput, current: NoteReviewItem[]): NoteReviewOutcome {
  input.items.forEach((d, i) => {
    if (reviewItemId(d.kind, d.loinc_code, d.text) !== d.id) {
      throw badRequest(`review.items[${i}].id: does not match the item's kind, loinc_code and text; send the items as GET note/review lists them`);
    }
  });
  const decided = new Map(input.items.map((d) => [d.id, d]));
  const open = current.filter((item) => !decided.has(item.id));
  if (open.length > 0) {
    const list = open.slice(0, 5).map((item) => `${item.kind} "${item.text.slice(0, 60)}"`).join('; ');
    throw badRequest(
      `review.items: ${open.length} item${open.length === 1 ? '' : 's'} of the review ${open.length === 1 ? 'has' : 'have'} no decision (${list}); resolve or acknowledge every item GET note/review lists`,
    );
  }
  return {
    attestation: NOTE_ATTESTATION,
    items: [...decided.values()].map((d) => ({ id: d.id, kind: d.kind, text: d.text, loinc_code: d.loinc_code ?? null, decision: d.decision })),
  };
}
