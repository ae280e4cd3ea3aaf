'use client';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Input } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { usePreChart, useSetPrevisitNote } from '@/lib/hooks/note-style';

function List({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      {empty ? <p className="text-sm text-slate-700">None on record</p> : <ul className="mt-1 list-disc pl-5 text-sm text-slate-900">{children}</ul>}
    </div>
  );
}

/**
 * The patient's context before and during recording (issue 31): problems, medications and allergies from the
 * visit's context and the patient's EMR data, the last visit's plan, and one line of pre-visit notes the note
 * engine may use, which the note shows as a pre-visit note, never as said in the visit.
 */
export function PreChart({ id, editable }: { id: string; editable: boolean }) {
  const chart = usePreChart(id);
  const save = useSetPrevisitNote(id);
  const [draft, setDraft] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  if (chart.isError) {
    return (
      <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
        The patient&apos;s context could not be loaded: {errorMessage(chart.error)}
      </p>
    );
  }
  if (!chart.data) return <p className="text-sm text-slate-700">Loading the patient&apos;s context…</p>;
  const c = chart.data;
  const note = draft ?? c.previsit_note ?? '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    try {
      await save.mutateAsync(note);
      setDraft(null);
      setSaved(true);
    } catch {
      // Shown below from the mutation's state.
    }
  }

  return (
    <section aria-labelledby={`${id}-prechart-title`} className="rounded-lg border border-slate-200 bg-white p-3" data-testid="pre-chart">
      <h2 id={`${id}-prechart-title`} className="text-base font-semibold">
        Before the visit
      </h2>
      <div className="mt-2 grid gap-3 sm:grid-cols-3">
        <List title="Problems" empty={c.problems.length === 0}>
          {c.problems.map((p) => (
            <li key={p.name}>
              {p.name}
              {p.code ? <span className="ml-1 font-mono text-xs text-slate-700">{p.code}</span> : null}
            </li>
          ))}
        </List>
        <List title="Medications" empty={c.medications.length === 0}>
          {c.medications.map((m) => (
            <li key={m.name}>
              {m.name}
              {m.detail ? <span className="text-slate-700"> — {m.detail}</span> : null}
            </li>
          ))}
        </List>
        <List title="Allergies" empty={c.allergies.length === 0}>
          {c.allergies.map((a) => (
            <li key={a.name}>
              {a.name}
              {a.reaction ? <span className="text-slate-700"> ({a.reaction})</span> : null}
            </li>
          ))}
        </List>
      </div>
      <div className="mt-3">
        <h3 className="text-sm font-semibold text-slate-900">Last visit&apos;s plan</h3>
        {c.last_plan ? (
          <p className="whitespace-pre-line text-sm text-slate-900" data-testid="last-plan">
            <span className="text-slate-700">{new Date(c.last_plan.date).toLocaleDateString()} · </span>
            {c.last_plan.text}
          </p>
        ) : (
          <p className="text-sm text-slate-700">No earlier visit with this patient</p>
        )}
      </div>
      {editable ? (
        <form onSubmit={(e) => void submit(e)} className="mt-3 flex flex-wrap items-end gap-2">
          <Input
            label="Pre-visit note"
            hint="Context for the note; it appears as a pre-visit note, not as something said in the visit."
            value={note}
            maxLength={500}
            onChange={(e) => {
              setDraft(e.target.value);
              setSaved(false);
            }}
            fieldClassName="min-w-64 flex-1"
            error={save.isError ? errorMessage(save.error) : null}
          />
          <Button type="submit" variant="secondary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save note'}
          </Button>
          <span className="text-sm text-slate-700" data-testid="previsit-saved">
            {saved ? 'Pre-visit note saved' : ''}
          </span>
        </form>
      ) : c.previsit_note ? (
        <p className="mt-3 text-sm text-slate-900">
          <span className="font-semibold">Pre-visit note: </span>
          {c.previsit_note}
        </p>
      ) : null}
    </section>
  );
}
