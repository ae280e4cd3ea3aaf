import type { NoteReviewItem, ReviewDecision, ReviewOutcomeInput } from '@/lib/contracts/note-review';
import { gapHeading } from '@/lib/transcript/recording-gap-cause';

/** A decision the signer made, with the item as it was listed when they made it. */
export type Decisions = Record<string, { item: NoteReviewItem; decision: ReviewDecision }>;

export const KIND_LABEL: Record<NoteReviewItem['kind'], string> = {
  LOW_CONFIDENCE: 'Left out: the recogniser was unsure',
  UNSUPPORTED: 'Removed: not found in the visit',
  NOT_UNDERSTOOD: 'Heard, not understood',
  CONTRADICTION: 'Contradicts the coded order',
  NO_EVIDENCE: 'No evidence in the transcript',
  EDITED_SECTION: 'Edited since generation',
  NOT_RECORDED: 'Not recorded',
  IMPLAUSIBLE_DOSE: 'Dose unusual for the drug',
};

/**
 * An item's badge. A pause is a stretch not recorded too, but the clinician's own: its badge says so, as its text
 * and the transcript's divider do (both begin with the gap's heading), rather than "Not recorded".
 */
export function kindLabel(item: Pick<NoteReviewItem, 'kind' | 'text'>): string {
  const paused = gapHeading('PAUSED');
  return item.kind === 'NOT_RECORDED' && item.text.startsWith(`${paused}:`) ? paused : KIND_LABEL[item.kind];
}

/** Listed items still without a decision. */
export function undecided(items: NoteReviewItem[], decisions: Decisions): NoteReviewItem[] {
  return items.filter((i) => !decisions[i.id]);
}

/**
 * The outcome sent with the signature: every listed item with its decision, plus items resolved by an edit
 * that the review no longer lists (the signer's decision on them is part of the record).
 */
export function reviewOutcome(items: NoteReviewItem[], decisions: Decisions): ReviewOutcomeInput {
  const listed = new Set(items.map((i) => i.id));
  const gone = Object.values(decisions).filter((d) => !listed.has(d.item.id) && d.decision === 'RESOLVED');
  return {
    attested: true,
    items: [...items.filter((i) => decisions[i.id]).map((i) => ({ item: i, decision: decisions[i.id]!.decision })), ...gone].map(({ item, decision }) => ({
      id: item.id,
      kind: item.kind,
      text: item.text,
      loinc_code: item.loinc_code,
      decision,
    })),
  };
}
