'use client';
import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/api/fetch';
import { Button } from '@/components/ui';

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="text-slate-500">—</span>;
  return <time dateTime={iso}>{formatTime(iso)}</time>;
}

export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-700">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function Section({ title, children, actions, id }: { title: ReactNode; children: ReactNode; actions?: ReactNode; id?: string }) {
  const headingId = id ?? `section-${String(title).toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section aria-labelledby={headingId} className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p role="status" className="py-4 text-sm text-slate-700">
      {label}
    </p>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
      <span>{errorMessage(error)}</span>
      {onRetry ? (
        <Button size="sm" variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <pre aria-label={label} tabIndex={0} className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
      {text}
    </pre>
  );
}

export function DefinitionList({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {items.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-700">{k}</dt>
          <dd className="break-all text-slate-900">{v ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Secrets shown once: a copy button and a warning that they cannot be shown again. */
export function OneTimeSecret({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="mb-2 font-medium text-amber-950">{label} — shown only now. Store it somewhere safe.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="one-time-secret" className="rounded bg-white px-2 py-1 font-mono text-xs break-all ring-1 ring-amber-300">
          {value}
        </code>
        <Button size="sm" variant="secondary" onClick={() => void navigator.clipboard?.writeText(value)}>
          Copy
        </Button>
      </div>
    </div>
  );
}
