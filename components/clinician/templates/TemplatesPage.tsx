'use client';
import { useState } from 'react';
import { Button, Select } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { templateRef, type NoteTemplate } from '@/lib/contracts/note-style';
import { usePreferences, useUpdatePreferences } from '@/lib/hooks/note-style';
import { useStyleOptions } from '../note/StylePicker';
import { TemplateForm } from './TemplateForm';

/**
 * The clinician's note templates and default style (issue 31), stored in their preferences: a new visit is
 * written in the default unless the visit chooses another style.
 */
export function TemplatesPage() {
  const prefs = usePreferences();
  const update = useUpdatePreferences();
  const options = useStyleOptions();
  const [editing, setEditing] = useState<NoteTemplate | null>(null);
  const [styleChoice, setStyleChoice] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  if (prefs.isError) {
    return (
      <p role="alert" className="text-sm text-red-800">
        Your preferences could not be loaded: {errorMessage(prefs.error)}
      </p>
    );
  }
  if (!prefs.data) return <p className="text-sm text-slate-700">Loading your templates…</p>;
  const p = prefs.data.personalization_preference;
  const templates = p.templates ?? [];
  const defaultStyle = styleChoice ?? p.note_style ?? '';

  async function saveTemplates(next: NoteTemplate[], done: string) {
    setStatus('');
    try {
      await update.mutateAsync({ personalization_preference: { templates: next } });
      setEditing(null);
      setStatus(done);
    } catch {
      // Shown by the form from the mutation's state.
    }
  }

  async function saveDefault() {
    setStatus('');
    try {
      await update.mutateAsync({ personalization_preference: { note_style: defaultStyle || null } });
      setStyleChoice(null);
      setStatus('Default note style saved.');
    } catch {
      // Shown below.
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="default-style-title" className="rounded-lg border border-slate-200 bg-white p-3">
        <h2 id="default-style-title" className="text-base font-semibold">
          Default note style
        </h2>
        <div className="mt-2 flex flex-wrap items-end gap-2">
          <Select
            label="New visits are written in"
            value={defaultStyle}
            placeholder="The requested sections (no style)"
            options={options}
            onChange={(e) => setStyleChoice(e.target.value)}
            fieldClassName="min-w-64 flex-1"
          />
          <Button onClick={() => void saveDefault()} disabled={update.isPending || defaultStyle === (p.note_style ?? '')}>
            Save default
          </Button>
        </div>
      </section>
      <section aria-labelledby="templates-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="templates-title" className="text-base font-semibold">
            My templates
          </h2>
          {!editing ? (
            <Button variant="secondary" onClick={() => setEditing({ id: crypto.randomUUID(), name: '', sections: [] })}>
              New template
            </Button>
          ) : null}
        </div>
        {templates.length === 0 && !editing ? <p className="text-sm text-slate-700">You have no templates yet.</p> : null}
        <ul className="flex flex-col gap-2">
          {templates.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 bg-white p-2" data-testid="template-item">
              <span className="font-medium">{t.name}</span>
              <span className="text-sm text-slate-700">{t.sections.map((s) => s.heading).join(' · ')}</span>
              {p.note_style === templateRef(t.id) ? <span className="rounded bg-blue-50 px-1 text-xs text-blue-900">default</span> : null}
              <span className="ml-auto flex gap-1">
                <Button size="sm" variant="ghost" onClick={() => setEditing(t)} aria-label={`Edit ${t.name}`}>
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Delete ${t.name}`}
                  disabled={p.note_style === templateRef(t.id)}
                  onClick={() => void saveTemplates(templates.filter((x) => x.id !== t.id), `Template ${t.name} deleted.`)}
                >
                  Delete
                </Button>
              </span>
            </li>
          ))}
        </ul>
        {editing ? (
          <TemplateForm
            key={editing.id}
            initial={editing}
            pending={update.isPending}
            error={update.isError ? errorMessage(update.error) : null}
            onCancel={() => setEditing(null)}
            onSave={(t) => void saveTemplates(templates.some((x) => x.id === t.id) ? templates.map((x) => (x.id === t.id ? t : x)) : [...templates, t], `Template ${t.name} saved.`)}
          />
        ) : null}
      </section>
      <p role="status" className="text-sm text-slate-800" data-testid="templates-status">
        {status}
      </p>
      {update.isError && !editing ? (
        <p role="alert" className="text-sm text-red-800">
          Not saved: {errorMessage(update.error)}
        </p>
      ) : null}
    </div>
  );
}
