'use client';
/** The frame every structured-data form shares: a titled group, the API's refusal, Save and Cancel. */
import type { FormEvent, ReactNode } from 'react';
import { Button } from '@/components/ui';

export interface ItemFormProps<B> {
  /** Null when adding. */
  position: number | null;
  busy: boolean;
  error: string | null;
  onSave: (body: B) => Promise<boolean>;
  onCancel: () => void;
}

export function ItemFormFrame({ title, busy, error, onSubmit, onCancel, children }: { title: string; busy: boolean; error: string | null; onSubmit: () => void; onCancel: () => void; children: ReactNode }) {
  return (
    <form
      aria-label={title}
      className="mt-2 flex flex-col gap-2 rounded-md border border-blue-200 bg-blue-50/40 p-2"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !e.defaultPrevented) onCancel();
      }}
    >
      <p className="text-sm font-semibold text-slate-800">{title}</p>
      {children}
      {error ? (
        <p role="alert" className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" loading={busy}>
          Save
        </Button>
        <Button size="sm" variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** An optional text field's value for the API: trimmed, or null when empty. */
export const orNull = (s: string) => (s.trim() ? s.trim() : null);
