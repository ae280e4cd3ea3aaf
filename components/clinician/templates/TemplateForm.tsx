'use client';
import { useState, type FormEvent } from 'react';
import { Button, Input, Select, Textarea } from '@/components/ui';
import type { NoteTemplate, TemplateSection } from '@/lib/contracts/note-style';
import { BUILTIN_STYLES, BUILTIN_STYLE_IDS, type BuiltinStyleId } from '@/lib/info/note-styles';
import { useInfo } from '@/lib/hooks/sessions';

/** A section as edited: the fixed wording is one line per template sentence. */
interface Row {
  key: number;
  loinc: string;
  heading: string;
  format: 'NARRATIVE' | 'BULLETED';
  text: string;
}

let nextKey = 1;
const toRow = (s: TemplateSection): Row => ({ key: nextKey++, loinc: s.loinc, heading: s.heading, format: s.format, text: (s.template_text ?? []).join('\n') });
const fromStyle = (id: BuiltinStyleId): Row[] =>
  BUILTIN_STYLES[id].sections.map((s) => ({ key: nextKey++, loinc: s.loinc, heading: s.heading.charAt(0) + s.heading.slice(1).toLowerCase(), format: s.format ?? 'NARRATIVE', text: '' }));

/**
 * One template: its name and sections (code, heading, bullets or prose, fixed wording), in order. The
 * server validates it; its message names the field (a heading left empty, template text that says what the
 * patient said) and is shown as it comes.
 */
export function TemplateForm({
  initial,
  pending,
  error,
  onSave,
  onCancel,
}: {
  initial: NoteTemplate;
  pending: boolean;
  error: string | null;
  onSave: (t: NoteTemplate) => void;
  onCancel: () => void;
}) {
  const info = useInfo();
  const [name, setName] = useState(initial.name);
  const [rows, setRows] = useState<Row[]>(() => (initial.sections.length ? initial.sections.map(toRow) : fromStyle('SOAP')));
  const loincs = (info.data?.loincs ?? []).map((l) => ({ value: l.code, label: `${l.common_name} (${l.code})` }));
  const update = (key: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const move = (i: number, by: number) =>
    setRows((rs) => {
      const out = rs.slice();
      const [r] = out.splice(i, 1);
      out.splice(i + by, 0, r!);
      return out;
    });

  function submit(e: FormEvent) {
    e.preventDefault();
    onSave({
      id: initial.id,
      name,
      sections: rows.map((r) => {
        const lines = r.text.split('\n').map((l) => l.trim()).filter(Boolean);
        return { loinc: r.loinc as TemplateSection['loinc'], heading: r.heading, format: r.format, ...(lines.length ? { template_text: lines } : {}) };
      }),
    });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-3" aria-label="Template" data-testid="template-form">
      <Input label="Template name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} />
      <Select
        label="Start from a built-in style"
        placeholder="Keep these sections"
        value=""
        options={BUILTIN_STYLE_IDS.map((id) => ({ value: id, label: BUILTIN_STYLES[id].name }))}
        onChange={(e) => e.target.value && setRows(fromStyle(e.target.value as BuiltinStyleId))}
      />
      <ol className="flex flex-col gap-3">
        {rows.map((r, i) => (
          <li key={r.key} className="rounded-md border border-slate-200 p-2" data-testid="template-section">
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-semibold">Section {i + 1}</legend>
              <div className="flex flex-wrap gap-2">
                <Input label="Heading" value={r.heading} onChange={(e) => update(r.key, { heading: e.target.value })} maxLength={80} fieldClassName="min-w-48 flex-1" />
                <Select label="Filed under" value={r.loinc} options={loincs} onChange={(e) => update(r.key, { loinc: e.target.value })} fieldClassName="min-w-48 flex-1" />
                <Select
                  label="Format"
                  value={r.format}
                  options={[
                    { value: 'NARRATIVE', label: 'Prose' },
                    { value: 'BULLETED', label: 'Bullets' },
                  ]}
                  onChange={(e) => update(r.key, { format: e.target.value as Row['format'] })}
                />
              </div>
              <Textarea
                label="Template text (optional, one line each)"
                hint="Fixed wording shown in every note as template text. It may not say what the patient said or agreed to."
                value={r.text}
                rows={2}
                onChange={(e) => update(r.key, { text: e.target.value })}
              />
              <div className="flex flex-wrap gap-2">
                <Button type="button" size="sm" variant="ghost" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move section ${i + 1} up`}>
                  Move up
                </Button>
                <Button type="button" size="sm" variant="ghost" disabled={i === rows.length - 1} onClick={() => move(i, 1)} aria-label={`Move section ${i + 1} down`}>
                  Move down
                </Button>
                <Button type="button" size="sm" variant="ghost" onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))} aria-label={`Remove section ${i + 1}`}>
                  Remove
                </Button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={() => setRows((rs) => [...rs, { key: nextKey++, loinc: '10164-2', heading: '', format: 'NARRATIVE', text: '' }])}>
          Add section
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save template'}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-800">
          The template was not saved: {error}
        </p>
      ) : null}
    </form>
  );
}
