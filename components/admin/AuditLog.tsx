'use client';
import { useState, type FormEvent } from 'react';
import type { AuditEntry } from '@/lib/contracts/admin';
import { Button, Input, Select, Table } from '@/components/ui';
import { ErrorState, Loading, PageHeader, Time } from './common';
import { LoadMore, useCursorList, useUrlFilters } from './cursor-list';
import { listAudit } from '@/lib/contracts/routes/admin-audit';
import { useAdminUser } from './admin-user';
import { partnerOptions, usePartners } from './queries';

const KEYS = ['actor', 'action', 'target_type', 'partner_id', 'from', 'to'] as const;

function Change({ e }: { e: AuditEntry }) {
  if (e.before == null && e.after == null) return <span className="text-slate-600">—</span>;
  return (
    <details>
      <summary className="cursor-pointer text-blue-800 underline">Show change</summary>
      <div className="mt-2 grid grid-cols-1 gap-2 md:grid-cols-2">
        <div>
          <p className="text-xs font-semibold">Before</p>
          <pre tabIndex={0} aria-label={`Before entry ${e.id}`} className="max-h-64 overflow-auto rounded bg-slate-100 p-2 text-xs">{JSON.stringify(e.before, null, 2)}</pre>
        </div>
        <div>
          <p className="text-xs font-semibold">After</p>
          <pre tabIndex={0} aria-label={`After entry ${e.id}`} className="max-h-64 overflow-auto rounded bg-slate-100 p-2 text-xs">{JSON.stringify(e.after, null, 2)}</pre>
        </div>
      </div>
    </details>
  );
}

export function AuditLog() {
  const user = useAdminUser();
  const partners = usePartners();
  const [filters, setFilters] = useUrlFilters(KEYS);
  const [draft, setDraft] = useState(filters);
  const list = useCursorList<AuditEntry, 'entries'>(['admin', 'audit'], listAudit, 'entries', filters);
  const set = (k: (typeof KEYS)[number]) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  function apply(e: FormEvent) {
    e.preventDefault();
    setFilters(draft);
  }
  return (
    <>
      <PageHeader title="Audit log" description="Every administrative change, who made it and what it changed." />
      <form onSubmit={apply} aria-label="Audit filters" className="mb-4 grid grid-cols-1 items-end gap-3 sm:grid-cols-3 lg:grid-cols-7">
        <Input label="Actor" placeholder="user:admin@example.com" value={draft.actor} onChange={set('actor')} />
        <Input label="Action" placeholder="partner.update" value={draft.action} onChange={set('action')} />
        <Input label="Target type" placeholder="partner" value={draft.target_type} onChange={set('target_type')} />
        {user.role === 'service_admin' ? (
          <Select label="Partner" placeholder="All partners" value={draft.partner_id} onChange={set('partner_id')} options={partnerOptions(partners.data)} />
        ) : null}
        <Input label="From" type="date" value={draft.from} onChange={set('from')} />
        <Input label="Before" type="date" value={draft.to} onChange={set('to')} />
        <div>
          <Button type="submit">Filter</Button>
        </div>
      </form>
      {list.isPending ? <Loading /> : list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : (
        <>
          <Table
            caption="Audit entries"
            rows={list.rows}
            rowKey={(e) => String(e.id)}
            empty="No entries match."
            columns={[
              { key: 'at', header: 'When', cell: (e) => <Time iso={e.at} /> },
              { key: 'actor', header: 'Actor', cell: (e) => <span className="break-all">{e.actor}</span> },
              { key: 'action', header: 'Action', cell: (e) => <code className="text-xs">{e.action}</code> },
              { key: 'target', header: 'Target', cell: (e) => <span className="break-all">{e.target_type}{e.target_id ? `: ${e.target_id}` : ''}</span> },
              { key: 'partner', header: 'Partner', cell: (e) => e.partner_id ?? '—' },
              { key: 'change', header: 'Change', cell: (e) => <Change e={e} /> },
            ]}
          />
          <LoadMore list={list} />
        </>
      )}
    </>
  );
}
