'use client';
import Link from 'next/link';
import { useState } from 'react';
import { Button, Select } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { BUILTIN_STYLES, BUILTIN_STYLE_IDS, specialtyDefaultStyle } from '@/lib/info/note-styles';
import { templateRef } from '@/lib/contracts/note-style';
import { usePreferences, useSetVisitNoteStyle, useUpdatePreferences, useVisitNoteStyle } from '@/lib/hooks/note-style';
import { useSessionContext } from '@/lib/hooks/workflow';
import { humanize } from '../format';

/** The choices a clinician has: the built-in styles, then their own templates. */
export function useStyleOptions() {
  const prefs = usePreferences();
  const templates = prefs.data?.personalization_preference.templates ?? [];
  return [
    ...BUILTIN_STYLE_IDS.map((id) => ({ value: id, label: `${BUILTIN_STYLES[id].name} — ${BUILTIN_STYLES[id].description}` })),
    ...templates.map((t) => ({ value: templateRef(t.id), label: `My template: ${t.name}` })),
  ];
}

/**
 * The visit's note style (issue 31). Before the visit ends the choice is used when the note is written;
 * on a finished visit "Apply style" writes the note again from the stored transcript, without re-recording.
 * A signed note refuses until amended, and says so. With no style of the visit's or the clinician's own,
 * the visit's specialty suggests one; a choice is remembered as the clinician's default unless unticked.
 */
export function StylePicker({ id, finished, locked = false }: { id: string; finished: boolean; locked?: boolean }) {
  const style = useVisitNoteStyle(id);
  const set = useSetVisitNoteStyle(id);
  const remember = useUpdatePreferences();
  const specialty = useSessionContext(id).data?.context.provider?.specialty;
  const options = useStyleOptions();
  const [choice, setChoice] = useState<string | null>(null);
  const [keep, setKeep] = useState(true);
  const suggested = specialtyDefaultStyle(specialty);
  const current = style.data?.effective_style ?? '';
  const value = choice ?? (current || suggested);
  const [done, setDone] = useState<string | null>(null);
  const lockedId = `${id}-style-locked`;

  async function apply() {
    setDone(null);
    try {
      const r = await set.mutateAsync(value);
      if (keep) await remember.mutateAsync({ personalization_preference: { note_style: value } });
      setDone(r.rerendered ? 'The note was written again in this style.' : 'This style will be used when the note is written.');
      setChoice(null);
    } catch {
      // The error is shown below from the mutation's state.
    }
  }

  return (
    <section aria-labelledby={`${id}-style-title`} className="rounded-lg border border-slate-200 bg-white p-3 print:hidden" data-testid="style-picker">
      <h2 id={`${id}-style-title`} className="text-base font-semibold">
        Note style
      </h2>
      <div className="mt-2 flex flex-wrap items-end gap-2">
        <Select
          label="Style for this visit"
          value={value}
          hint={!current && specialty ? `${BUILTIN_STYLES[suggested].name} is suggested for ${humanize(specialty).toLowerCase()}.` : undefined}
          options={options}
          disabled={locked || style.isPending}
          onChange={(e) => {
            setChoice(e.target.value);
            setDone(null);
          }}
          fieldClassName="min-w-64 flex-1"
        />
        <Button
          onClick={() => void apply()}
          disabled={locked || !value || set.isPending || remember.isPending || (value === style.data?.note_style && !finished)}
          aria-describedby={locked ? lockedId : undefined}
        >
          {set.isPending ? (finished ? 'Writing the note…' : 'Saving…') : finished ? 'Apply style' : 'Use this style'}
        </Button>
        <label className="flex items-center gap-1 text-sm text-slate-800">
          <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.target.checked)} />
          Remember as my default
        </label>
        <Link href="/templates" className="text-sm text-blue-800 underline">
          My templates
        </Link>
      </div>
      {locked ? (
        <p id={lockedId} className="mt-1 text-xs text-slate-700" data-testid="style-locked">
          Signed notes are locked; amend to change the style.
        </p>
      ) : null}
      {finished && !locked ? <p className="mt-1 text-xs text-slate-700">Applying a style writes the note again from the transcript; edits to the note are replaced.</p> : null}
      <p role="status" className="mt-1 text-sm text-slate-800" data-testid="style-status">
        {done}
      </p>
      {set.isError || remember.isError ? (
        <p role="alert" className="mt-1 text-sm text-red-800">
          The style could not be applied: {errorMessage(set.error ?? remember.error)}
        </p>
      ) : null}
    </section>
  );
}
