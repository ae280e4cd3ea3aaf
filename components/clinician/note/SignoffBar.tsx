'use client';
import Link from 'next/link';
import { useState } from 'react';
import { Badge, Button, Dialog, Textarea } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import type { NoteSignoffState } from '@/lib/contracts/note-signoff';
import type { NoteReviewItem, ReviewDecision } from '@/lib/contracts/note-review';
import { useNoteReview, useSignoff } from '@/lib/hooks/workflow';
import { useSignHints } from '@/lib/stores/sign-hints';
import { ReviewDialog } from './ReviewDialog';
import { signoffBadge } from '../visit-status';
import { reviewOutcome, type Decisions } from './review-decisions';

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Sign the note (locks it) after the review of what needs a decision, or amend a signed one with a required
 * reason; links the patient summary. Decisions outlive closing the review to edit the note, so the signer
 * comes back to what they already decided. What a sign or amend did is said on the bar's own status line, not in
 * a toast over the note (a browser trial saw "Note signed." cover the medications table).
 */
export function SignoffBar({ sessionId, state }: { sessionId: string; state: NoteSignoffState | undefined }) {
  const { sign, amend } = useSignoff(sessionId);
  const [amending, setAmending] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [decisions, setDecisions] = useState<Decisions>({});
  const [attested, setAttested] = useState(false);
  // The "edit, then sign again" hints raised from the review, above their sections; gone once the note is signed.
  const hints = useSignHints();
  const [news, setNews] = useState<string | null>(null);
  const [signError, setSignError] = useState<string | null>(null);
  const review = useNoteReview(sessionId, reviewing);
  const locked = state?.locked ?? false;
  const badge = signoffBadge(state);

  function openReview() {
    // Edits since the last look change the list, so it is read again each time.
    if (review.data) void review.refetch();
    setSignError(null);
    setReviewing(true);
  }

  function decide(item: NoteReviewItem, decision: ReviewDecision | null) {
    setDecisions((d) => {
      const next = { ...d };
      if (decision) next[item.id] = { item, decision };
      else delete next[item.id];
      return next;
    });
  }

  function editFor(item: NoteReviewItem) {
    decide(item, 'RESOLVED');
    setReviewing(false);
    if (item.loinc_code) hints.add(sessionId, item.loinc_code, `To resolve before signing: “${item.text}”. Edit it here, then press Sign note again.`);
    // After the modal has closed, so focus is not taken back by the dialog.
    requestAnimationFrame(() => {
      const box = document.querySelector<HTMLTextAreaElement>(`[data-testid="note-section"][data-loinc="${CSS.escape(item.loinc_code ?? '')}"] textarea`);
      box?.scrollIntoView({ block: 'center' });
      box?.focus();
    });
  }

  async function doSign() {
    if (!review.data) return;
    setNews(null);
    setSignError(null);
    try {
      await sign.mutateAsync(reviewOutcome(review.data.items, decisions));
      setReviewing(false);
      setDecisions({});
      setAttested(false);
      hints.clear(sessionId);
      setNews('Note signed. It is locked: amend it to make changes.');
    } catch (err) {
      setSignError(errorMessage(err));
      // The note may have changed under the review (another tab): show the list as it is now.
      void review.refetch();
    }
  }

  async function doAmend() {
    if (reason.trim().length < 3) {
      setReasonError('Say why the signed note is amended (at least 3 characters).');
      return;
    }
    setNews(null);
    try {
      await amend.mutateAsync(reason.trim());
      setAmending(false);
      setReason('');
      setNews('The note is open for amendment. Sign it again when the changes are done.');
    } catch (err) {
      setReasonError(errorMessage(err));
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white p-3" data-testid="signoff-bar">
      <span data-testid="note-status">{badge ? <Badge tone={badge.tone}>{badge.label}</Badge> : null}</span>
      {state?.signed_at ? (
        <span className="text-sm text-slate-700">
          Signed {when(state.signed_at)}
          {state.signed_by?.name ? ` by ${state.signed_by.name}` : ''}
        </span>
      ) : (
        <span className="text-sm text-slate-700">Not signed yet</span>
      )}
      <div className="ml-auto flex flex-wrap gap-2">
        <Link
          href={`/visits/${sessionId}/summary`}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 print:hidden"
        >
          Patient summary
        </Link>
        {locked ? (
          <Button size="sm" variant="secondary" onClick={() => setAmending(true)}>
            Amend note
          </Button>
        ) : (
          <Button size="sm" onClick={openReview} disabled={!state} aria-haspopup="dialog">
            Sign note
          </Button>
        )}
      </div>
      {/* Always in the page, so the words are announced when they change; out of the layout while empty. */}
      <p role="status" className={news ? 'basis-full text-sm text-green-900' : 'sr-only'} data-testid="signoff-news">
        {news}
      </p>
      <ReviewDialog
        open={reviewing}
        onClose={() => setReviewing(false)}
        review={review.isFetching ? undefined : review.data}
        error={review.error}
        decisions={decisions}
        decide={decide}
        onEdit={editFor}
        attested={attested}
        setAttested={setAttested}
        onSign={() => void doSign()}
        signing={sign.isPending}
        signError={signError}
      />
      <Dialog
        open={amending}
        onClose={() => setAmending(false)}
        title="Amend the signed note"
        description="The signed version is kept in the history. Sign again when the changes are done."
        footer={
          <>
            <Button variant="secondary" onClick={() => setAmending(false)}>
              Cancel
            </Button>
            <Button onClick={() => void doAmend()} loading={amend.isPending}>
              Reopen for amendment
            </Button>
          </>
        }
      >
        <Textarea
          label="Reason for the amendment"
          required
          value={reason}
          maxLength={1000}
          rows={3}
          error={reasonError}
          onChange={(e) => {
            setReason(e.target.value);
            setReasonError(null);
          }}
        />
      </Dialog>
    </div>
  );
}
