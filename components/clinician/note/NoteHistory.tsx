'use client';
import { Button } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import type { NoteHistoryEvent } from '@/lib/contracts/note-signoff';
import { useNoteHistory } from '@/lib/hooks/workflow';
import { kindLabel } from './review-decisions';

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
const who = (e: NoteHistoryEvent) => e.by.name ?? 'a clinician';

const KIND_NAME = { diagnoses: 'Diagnosis', medication_orders: 'Medication order', allergies: 'Allergy', service_orders: 'Lab or imaging order' } as const;
const ACTION_NAME = { add: 'added', edit: 'changed', remove: 'removed' } as const;

/** One coded item in a line: "E11.65 Type 2 diabetes …", "metformin 500 mg twice a day (ACTIVE)", "penicillin: rash". */
function codedItem(kind: keyof typeof KIND_NAME, item: unknown): string {
  if (!item || typeof item !== 'object') return '(none)';
  const o = item as Record<string, any>;
  if (kind === 'diagnoses') return [o.codes?.[0]?.code, o.codes?.[0]?.description].filter(Boolean).join(' ') || '(no code)';
  if (kind === 'medication_orders') return [o.drug_name, o.dosage?.raw_value, o.frequency?.raw_value, o.status ? `(${o.status})` : null].filter(Boolean).join(' ');
  if (kind === 'allergies') return `${o.substance ?? ''}${o.reaction ? `: ${o.reaction}` : ''}`;
  return [o.name, o.code?.code ? `(LOINC ${o.code.code})` : null, o.timing].filter(Boolean).join(' ');
}

function Event({ e }: { e: NoteHistoryEvent }) {
  if (e.type === 'structured_data') {
    return (
      <>
        <p>
          <strong>{KIND_NAME[e.kind]}</strong> {ACTION_NAME[e.action]} by {who(e)}, <time dateTime={e.at}>{when(e.at)}</time>
        </p>
        <div className="mt-1 grid grid-cols-1 gap-2 sm:grid-cols-2">
          <div>
            <p className="text-xs font-medium text-slate-700">Before</p>
            <p className="rounded bg-red-50 p-1.5">{e.action === 'add' ? '(none)' : codedItem(e.kind, e.before)}</p>
          </div>
          <div>
            <p className="text-xs font-medium text-slate-700">After</p>
            <p className="rounded bg-green-50 p-1.5">{e.action === 'remove' ? '(removed)' : codedItem(e.kind, e.after)}</p>
          </div>
        </div>
      </>
    );
  }
  if (e.type === 'sign') {
    return (
      <>
        <p>
          <strong>Signed</strong> by {who(e)}, <time dateTime={e.at}>{when(e.at)}</time>
        </p>
        {e.review ? <SignedReview review={e.review} /> : null}
        <details className="mt-1">
          <summary className="cursor-pointer text-blue-800">The note as signed</summary>
          {e.summary.map((s) => (
            <div key={s.loinc_code} className="mt-1">
              <p className="font-medium">{s.title}</p>
              <p className="whitespace-pre-wrap text-slate-800">{s.content}</p>
            </div>
          ))}
        </details>
      </>
    );
  }
  if (e.type === 'amend') {
    return (
      <p>
        <strong>Amendment opened</strong> by {who(e)}, <time dateTime={e.at}>{when(e.at)}</time>. Reason: <q>{e.reason}</q>
      </p>
    );
  }
  return (
    <>
      <p>
        <strong>{e.title ?? `Section ${e.loinc_code}`}</strong> edited by {who(e)}, <time dateTime={e.at}>{when(e.at)}</time>
      </p>
      <div className="mt-1 grid grid-cols-1 gap-2 sm:grid-cols-2">
        <div>
          <p className="text-xs font-medium text-slate-700">Before</p>
          <p className="rounded bg-red-50 p-1.5 whitespace-pre-wrap">{e.before || '(empty)'}</p>
        </div>
        <div>
          <p className="text-xs font-medium text-slate-700">After</p>
          <p className="rounded bg-green-50 p-1.5 whitespace-pre-wrap">{e.after || '(empty)'}</p>
        </div>
      </div>
    </>
  );
}

/** The review the signer went through: each item with their decision, and the attestation they confirmed. */
function SignedReview({ review }: { review: NonNullable<Extract<NoteHistoryEvent, { type: 'sign' }>['review']> }) {
  const resolved = review.items.filter((i) => i.decision === 'RESOLVED').length;
  return (
    <details className="mt-1" data-testid="signed-review">
      <summary className="cursor-pointer text-blue-800">
        Review before signing: {review.items.length === 0 ? 'nothing needed a decision' : `${resolved} resolved, ${review.items.length - resolved} acknowledged`}
      </summary>
      {review.items.length > 0 ? (
        // Paragraphs, not a nested list: the history's items are its events.
        <div className="mt-1 flex flex-col gap-1">
          {review.items.map((i) => (
            <p key={i.id}>
              <span className="font-medium">{i.decision === 'RESOLVED' ? 'Resolved' : 'Acknowledged'}</span> ({kindLabel(i).toLowerCase()}): “{i.text}”
            </p>
          ))}
        </div>
      ) : null}
      <p className="mt-1 text-slate-700">Attested: {review.attestation}</p>
    </details>
  );
}

/**
 * Every edit, signature and amendment of the note, newest first, in a focusable scroll region. Only the
 * newest page is loaded with the visit; older events come with "Load more".
 */
export function NoteHistory({ sessionId }: { sessionId: string }) {
  const history = useNoteHistory(sessionId);
  return (
    <section aria-labelledby="note-history-title" className="rounded-lg border border-slate-200 bg-white p-3">
      <h2 id="note-history-title" className="mb-2 text-base font-semibold">
        Note history
      </h2>
      {history.isError && !history.data ? (
        <p role="alert" className="text-sm text-red-800">
          The history could not be loaded: {errorMessage(history.error)}
        </p>
      ) : !history.data ? (
        <p className="text-sm text-slate-700">Loading the history…</p>
      ) : history.data.events.length === 0 ? (
        <p className="text-sm text-slate-700">No edits yet. The note is as generated.</p>
      ) : (
        <div className="max-h-96 overflow-y-auto" tabIndex={0} role="region" aria-label="Note history, newest first">
          <ol className="flex flex-col gap-2 text-sm" data-testid="note-history">
            {history.data.events.map((e, i) => (
              <li key={`${e.type}-${e.at}-${i}`} className="border-t border-slate-100 pt-2 first:border-t-0 first:pt-0" data-event={e.type}>
                <Event e={e} />
              </li>
            ))}
          </ol>
          {history.hasNextPage ? (
            <Button size="sm" variant="secondary" className="mt-2" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage}>
              Load more
            </Button>
          ) : null}
          {history.isFetchNextPageError ? (
            <p role="alert" className="mt-1 text-sm text-red-800">
              Older history could not be loaded: {errorMessage(history.error)}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}
