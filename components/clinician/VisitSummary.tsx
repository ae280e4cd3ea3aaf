'use client';
import Link from 'next/link';
import { Button } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { useSessionContext, useVisitSummary } from '@/lib/hooks/workflow';
import { copyText } from './note/copy-text';

function Part({ title, items, empty, testId }: { title: string; items: string[]; empty: string; testId: string }) {
  return (
    <section aria-labelledby={`avs-${testId}`} className="break-inside-avoid" data-testid={`avs-${testId}`}>
      <h2 id={`avs-${testId}`} className="mb-1 text-xl font-semibold print:text-lg">
        {title}
      </h2>
      {items.length ? (
        <ul className="list-disc pl-6 text-lg leading-relaxed print:text-base">
          {items.map((t, i) => (
            <li key={i}>{t}</li>
          ))}
        </ul>
      ) : (
        <p className="text-lg text-slate-800 print:text-base">{empty}</p>
      )}
    </section>
  );
}

/**
 * The after-visit summary page: large plain text for the patient, a print layout without the app's
 * chrome (print: variants: this page's actions; the header, every Button and the toasts hide themselves),
 * and a copy of the whole text for a patient portal message.
 */
export function VisitSummary({ id }: { id: string }) {
  const summary = useVisitSummary(id);
  const ctx = useSessionContext(id);
  const name = ctx.data?.context.patient?.name;

  if (summary.isError) {
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
        The summary could not be made: {errorMessage(summary.error)}{' '}
        <Link href={`/visits/${id}`} className="underline">
          Back to the visit
        </Link>
      </p>
    );
  }
  if (!summary.data) return <p className="text-sm text-slate-700">Preparing the summary…</p>;
  const s = summary.data;
  // As in the summary's text (build-visit-summary.ts): medicines, tests and a follow-up carry the plan when it has no steps of its own.
  const planElsewhere = s.medicines.length > 0 || (s.tests?.length ?? 0) > 0 || s.follow_up.length > 0;
  return (
    <article aria-labelledby="avs-title" className="mx-auto flex max-w-3xl flex-col gap-5 rounded-lg border border-slate-200 bg-white p-6 print:max-w-none print:border-0 print:p-0" data-testid="visit-summary">
      <div className="flex flex-wrap items-center gap-2 print:hidden" data-testid="avs-actions">
        <Link href={`/visits/${id}`} className="text-sm text-blue-800 underline">
          ← Back to the visit
        </Link>
        <span className="text-sm text-slate-700" data-testid="reading-grade">
          Reading level: grade {s.reading_grade} (Flesch-Kincaid)
        </span>
        <div className="ml-auto flex gap-2">
          <Button size="sm" variant="secondary" onClick={() => void copyText(s.text, 'The summary')}>
            Copy summary
          </Button>
          <Button size="sm" onClick={() => window.print()}>
            Print summary
          </Button>
        </div>
      </div>
      <header>
        <h1 id="avs-title" className="text-3xl font-semibold print:text-2xl">
          Your visit summary
        </h1>
        <p className="mt-1 text-lg text-slate-800 print:text-base">
          {name ? `For ${name}. ` : ''}Printed {new Date().toLocaleDateString([], { dateStyle: 'long' })}.
        </p>
      </header>
      <Part title="Why you came in" items={s.about} empty="Ask your clinic if you have questions about this visit." testId="about" />
      {s.plan.length || !planElsewhere ? (
        <Part title="Your plan" items={s.plan} empty="No steps were set for you at this visit. Ask your clinic if you are not sure what to do next." testId="plan" />
      ) : null}
      <Part title="Your medicines" items={s.medicines.map((m) => m.text)} empty="No medicine changes." testId="medicines" />
      <Part title="Your allergies" items={s.allergies ?? []} empty="No allergies are in your record from this visit." testId="allergies" />
      <Part title="Tests ordered" items={s.tests ?? []} empty="No tests were ordered." testId="tests" />
      <Part title="Follow-up" items={s.follow_up} empty="No follow-up visit was set. Call your clinic if you have questions." testId="follow-up" />
      <Part title="When to get help" items={s.get_help} empty="Call your clinic if you feel worse or have new problems. In an emergency, call 911." testId="get-help" />
      {s.clinic ? (
        <p className="text-lg text-slate-800 print:text-base" data-testid="avs-clinic">
          {s.clinic.name}
          {s.clinic.phone ? `. Call ${s.clinic.phone} with questions.` : '.'}
        </p>
      ) : null}
    </article>
  );
}
