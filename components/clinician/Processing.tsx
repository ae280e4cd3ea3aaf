'use client';
import { useEffect, useState } from 'react';
import { focusOnMount } from './announce';

const STEPS = ['Audio received', 'Final transcript and speakers', 'Writing the note sections', 'Coding diagnoses and medications'];

/** Shown while the status is running; the parent's status query polls until a terminal state. */
export function Processing() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(t);
  }, []);
  // The API reports only "running", so the steps are the pipeline's order, not live progress.
  const current = Math.min(STEPS.length - 1, 1 + Math.floor(seconds / 8));
  return (
    <section aria-labelledby="processing-title" className="rounded-lg border border-slate-200 bg-white p-6">
      {/* The recorder's End button is gone: focus comes here, then to the note's heading when it is ready. */}
      <h2 id="processing-title" className="text-lg font-semibold" tabIndex={-1} ref={focusOnMount}>
        Preparing the note
      </h2>
      <p className="mt-1 text-sm text-slate-700" role="status" aria-live="polite">
        Processing the visit… {seconds} s. This page updates by itself; you can leave and come back from Today&apos;s visits.
      </p>
      <div className="mt-4 h-2 w-full overflow-hidden rounded bg-slate-100" aria-hidden="true">
        <div className="h-full w-1/3 animate-pulse rounded bg-blue-600" style={{ width: `${((current + 1) / (STEPS.length + 1)) * 100}%` }} />
      </div>
      <ol className="mt-4 flex flex-col gap-1 text-sm">
        {STEPS.map((step, i) => (
          <li key={step} className={i < current ? 'text-slate-600' : i === current ? 'font-medium text-slate-900' : 'text-slate-600'}>
            <span aria-hidden="true">{i < current ? '✓ ' : i === current ? '… ' : '· '}</span>
            {step}
          </li>
        ))}
      </ol>
    </section>
  );
}
