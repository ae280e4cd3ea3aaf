'use client';
import { useId } from 'react';
import { Badge, Button, Dialog } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import type { NoteReviewItem, NoteReviewResponse, ReviewDecision } from '@/lib/contracts/note-review';
import { kindLabel, undecided, type Decisions } from './review-decisions';

/**
 * The review before signing: each item with what it is and why it needs a decision, resolved by editing the
 * note or acknowledged as it stands, then the attestation. Signing waits until every item is decided.
 */
export function ReviewDialog({
  open,
  onClose,
  review,
  error,
  decisions,
  decide,
  onEdit,
  attested,
  setAttested,
  onSign,
  signing,
  signError,
}: {
  open: boolean;
  onClose: () => void;
  review: NoteReviewResponse | undefined;
  error: unknown;
  decisions: Decisions;
  decide: (item: NoteReviewItem, decision: ReviewDecision | null) => void;
  onEdit: (item: NoteReviewItem) => void;
  attested: boolean;
  setAttested: (v: boolean) => void;
  onSign: () => void;
  signing: boolean;
  /** Why the last "Confirm and sign" failed, said in the dialog the signer is looking at, not in a toast behind it. */
  signError: string | null;
}) {
  const attestId = useId();
  const open_ = review ? undecided(review.items, decisions).length : 0;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Review before signing"
      description="Resolve each item by editing the note, or acknowledge it as it stands. Then confirm the attestation."
      className="w-[min(48rem,calc(100vw-2rem))]"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={onSign} loading={signing} disabled={!review || open_ > 0 || !attested}>
            Confirm and sign
          </Button>
        </>
      }
    >
      {error ? (
        <p role="alert" className="text-sm text-red-800">
          The review could not be loaded: {errorMessage(error)}
        </p>
      ) : !review ? (
        <p className="text-sm text-slate-700">Loading the review…</p>
      ) : (
        <>
          <p className="text-sm text-slate-800" role="status" data-testid="review-count">
            {review.items.length === 0
              ? 'Nothing in this note needs a decision.'
              : open_ === 0
                ? `All ${review.items.length} items are decided.`
                : `${open_} of ${review.items.length} item${review.items.length === 1 ? '' : 's'} still need${open_ === 1 ? 's' : ''} a decision.`}
          </p>
          {review.items.length > 0 ? (
            <ol className="flex max-h-[50vh] flex-col gap-2 overflow-y-auto text-sm" data-testid="review-items" tabIndex={0} aria-label="Items to review">
              {review.items.map((item) => (
                <ReviewRow key={item.id} item={item} decision={decisions[item.id]?.decision ?? null} decide={decide} onEdit={onEdit} />
              ))}
            </ol>
          ) : null}
          <div className="flex items-start gap-2 rounded-md bg-slate-50 p-2 text-sm">
            <input id={attestId} type="checkbox" className="mt-1 h-4 w-4" checked={attested} onChange={(e) => setAttested(e.target.checked)} />
            <label htmlFor={attestId}>{review.attestation}</label>
          </div>
          {signError ? (
            <p role="alert" className="text-sm text-red-800" data-testid="sign-error">
              The note was not signed: {signError}
            </p>
          ) : null}
        </>
      )}
    </Dialog>
  );
}

function ReviewRow({
  item,
  decision,
  decide,
  onEdit,
}: {
  item: NoteReviewItem;
  decision: ReviewDecision | null;
  decide: (item: NoteReviewItem, decision: ReviewDecision | null) => void;
  onEdit: (item: NoteReviewItem) => void;
}) {
  return (
    <li className="rounded-md border border-slate-200 p-2" data-testid="review-item" data-kind={item.kind} data-decision={decision ?? 'none'}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={item.kind === 'CONTRADICTION' || item.kind === 'UNSUPPORTED' || item.kind === 'IMPLAUSIBLE_DOSE' ? 'danger' : item.kind === 'EDITED_SECTION' ? 'info' : 'warning'}>{kindLabel(item)}</Badge>
        <span className="text-xs text-slate-700">{item.section_title ?? (item.loinc_code ? `Section ${item.loinc_code}` : item.kind === 'NOT_RECORDED' ? 'Recording' : item.kind === 'IMPLAUSIBLE_DOSE' ? 'Medication order' : 'Structured data')}</span>
        {decision ? <Badge tone="success">{decision === 'RESOLVED' ? 'Resolved' : 'Acknowledged'}</Badge> : null}
      </div>
      <p className="mt-1 font-medium">“{item.text}”</p>
      <p className="text-slate-700">{item.detail}</p>
      <div className="mt-1 flex flex-wrap gap-2">
        {item.loinc_code ? (
          <Button size="sm" variant="secondary" onClick={() => onEdit(item)}>
            Resolve: edit {item.section_title ?? 'the section'}
          </Button>
        ) : null}
        <Button size="sm" variant={decision === 'ACKNOWLEDGED' ? 'primary' : 'ghost'} aria-pressed={decision === 'ACKNOWLEDGED'} onClick={() => decide(item, decision === 'ACKNOWLEDGED' ? null : 'ACKNOWLEDGED')}>
          Acknowledge
        </Button>
      </div>
    </li>
  );
}
