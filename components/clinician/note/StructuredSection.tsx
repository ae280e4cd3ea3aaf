'use client';
/** One kind's part of the structured-data panel: heading, its items, the Add button and the open form. */
import type { ReactNode } from 'react';
import { Button } from '@/components/ui';

export interface SectionEditing {
  /** The panel's edits are allowed (the note is not signed, and the panel knows its session). */
  editable: boolean;
  busy: boolean;
  onEdit: (position: number) => void;
  onRemove: (position: number) => void;
}

export function StructuredSection({ id, title, addLabel, editable, onAdd, addForm, children }: { id: string; title: string; addLabel: string; editable: boolean; onAdd: () => void; addForm: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-3">
      <div className="flex items-center gap-2">
        <h3 id={id} className="text-sm font-semibold text-slate-800">
          {title}
        </h3>
        {editable && !addForm ? (
          <Button size="sm" variant="ghost" className="ml-auto" onClick={onAdd}>
            {addLabel}
          </Button>
        ) : null}
      </div>
      {children}
      {addForm}
    </section>
  );
}

/** Edit and Remove for one item, named with the item so a screen reader list of buttons says which. */
export function ItemActions({ what, position, editing }: { what: string; position: number; editing: SectionEditing }) {
  if (!editing.editable) return null;
  return (
    <span className="mt-1 flex gap-1">
      <Button size="sm" variant="ghost" aria-label={`Edit ${what}`} onClick={() => editing.onEdit(position)}>
        Edit
      </Button>
      <Button size="sm" variant="ghost" aria-label={`Remove ${what}`} disabled={editing.busy} onClick={() => editing.onRemove(position)}>
        Remove
      </Button>
    </span>
  );
}
