'use client';
/**
 * The clinician's changes of the coded data (who, when, what before and after), newest first, read from
 * GET …/structured-data/history when the list is opened.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '@/lib/api/fetch';
import type { StructuredDataChange } from '@/lib/contracts/structured-data-edits';
import { getStructuredDataHistory } from '@/lib/contracts/routes/structured-data';
import { callAsClinician } from '@/lib/hooks/clinician-call';
import { formatTime } from '../format';

export const structuredHistoryKey = (id: string) => ['v1', 'session', id, 'structured-data-history'] as const;

const KIND: Record<StructuredDataChange['kind'], string> = {
  diagnoses: 'diagnosis',
  medication_orders: 'medication order',
  allergies: 'allergy',
  service_orders: 'lab or imaging order',
};
const ACTION = { add: 'added', edit: 'changed', remove: 'removed' } as const;

/** A stored item in a few words: its code or name. */
export function itemLabel(item: unknown): string {
  if (!item || typeof item !== 'object') return '';
  const o = item as Record<string, any>;
  if (Array.isArray(o.codes)) return o.codes.map((c: { code: string; description: string }) => `${c.code} ${c.description}`)[0] ?? '';
  if (typeof o.drug_name === 'string') return [o.drug_name, o.dosage?.raw_value, o.frequency?.raw_value].filter(Boolean).join(' ');
  if (typeof o.substance === 'string') return [o.substance, o.reaction].filter(Boolean).join(': ');
  if (typeof o.name === 'string') return o.name;
  return '';
}

export function StructuredDataChanges({ sessionId }: { sessionId: string }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const history = useQuery({
    queryKey: structuredHistoryKey(sessionId),
    queryFn: () => callAsClinician(qc, getStructuredDataHistory, { params: { ambient_session_id: sessionId } }),
    enabled: open,
  });
  const changes = history.data?.changes ?? [];
  return (
    <details className="mt-3 text-sm" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary className="cursor-pointer text-sm font-semibold text-slate-800">Changes to the coded data</summary>
      {history.isError ? (
        <p role="alert" className="text-xs text-red-800">
          The changes could not be loaded: {errorMessage(history.error)}
        </p>
      ) : history.isPending ? (
        <p className="text-xs text-slate-700">{open ? 'Loading…' : null}</p>
      ) : changes.length === 0 ? (
        <p className="text-xs text-slate-700">No changes since the note was written.</p>
      ) : (
        <ol className="mt-1 flex flex-col gap-1" data-testid="structured-changes">
          {changes.map((c, i) => (
            <li key={i} className="rounded bg-slate-50 p-1.5 text-xs text-slate-800" data-action={c.action}>
              <span className="font-medium">{c.by.name ?? 'A clinician'}</span> {ACTION[c.action]} {KIND[c.kind]}{' '}
              <span className="text-slate-600">{formatTime(c.at)}</span>
              {c.before ? <span className="block">Before: {itemLabel(c.before)}</span> : null}
              {c.after ? <span className="block">After: {itemLabel(c.after)}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
