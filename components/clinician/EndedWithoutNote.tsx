import Link from 'next/link';

const TEXT: Record<string, { title: string; why: string; next: string }> = {
  skipped: {
    title: 'No note was written for this visit',
    why: 'Too little speech was recorded, or nothing in the recording could be transcribed (for example, the microphone was muted or too far away).',
    next: 'Check that the right microphone is selected and its level meter moves when you speak, then start a new visit and record again.',
  },
  failed: {
    title: 'Processing this visit failed',
    why: 'The audio was saved, but generating the transcript or note ran into an error on the server.',
    next: 'Start a new visit to record again if the visit is still going on; otherwise contact your administrator with the time of this visit so it can be looked into.',
  },
  aborted: {
    title: 'This visit was cancelled',
    why: 'Recording was cancelled, so its audio is not used for a note.',
    next: 'Start a new visit to record again.',
  },
};

export function EndedWithoutNote({ status }: { status: string }) {
  const t = TEXT[status] ?? { title: `This visit ended (${status})`, why: '', next: 'Start a new visit to record again.' };
  return (
    <section aria-labelledby="ended-title" className="rounded-lg border border-amber-300 bg-amber-50 p-6 text-amber-950" data-testid="ended-without-note">
      <h2 id="ended-title" className="text-lg font-semibold">
        {t.title}
      </h2>
      {t.why ? <p className="mt-2 text-sm">{t.why}</p> : null}
      <p className="mt-2 text-sm">
        <strong>What to do next:</strong> {t.next}
      </p>
      <p className="mt-4 flex gap-4 text-sm">
        <Link href="/visits/new" className="font-medium text-blue-800 underline">
          Start a new visit
        </Link>
        <Link href="/visits" className="text-blue-800 underline">
          Back to today&apos;s visits
        </Link>
      </p>
    </section>
  );
}
