'use client';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { SESSION_STATUSES, type AdminSession } from '@/lib/contracts/admin';
import { Badge, Button, Input, Select, Table, statusTone } from '@/components/ui';
import { ErrorState, Loading, PageHeader, Time } from './common';
import { LoadMore, useCursorList, useUrlFilters } from './cursor-list';
import { listAdminSessions } from '@/lib/contracts/routes/admin-sessions';
import { useAdminUser } from './admin-user';
import { partnerOptions, usePartners } from './queries';

// provider_id stays a URL filter for links that name one provider; people filter by name or email.
const KEYS = ['partner_id', 'provider', 'provider_id', 'status', 'from', 'to'] as const;

function toIsoDate(v: string): string {
  // Date inputs give a local calendar day; the API takes ISO dates.
  return v;
}

export function SessionList() {
  const user = useAdminUser();
  const partners = usePartners();
  const [filters, setFilters] = useUrlFilters(KEYS);
  const [draft, setDraft] = useState(filters);
  const list = useCursorList<AdminSession, 'sessions'>(['admin', 'sessions'], listAdminSessions, 'sessions', {
    ...filters,
    from: filters.from ? toIsoDate(filters.from) : '',
    to: filters.to ? toIsoDate(filters.to) : '',
  });
  const set = (k: (typeof KEYS)[number]) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  function apply(e: FormEvent) {
    e.preventDefault();
    setFilters({ ...draft, provider: draft.provider.trim() });
  }
  return (
    <>
      <PageHeader title="Sessions" description="Ambient sessions, newest first." />
      <form onSubmit={apply} aria-label="Session filters" className="mb-4 grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-6">
        {user.role === 'service_admin' ? (
          <Select label="Partner" placeholder="All partners" value={draft.partner_id} onChange={set('partner_id')} options={partnerOptions(partners.data)} />
        ) : null}
        <Input label="Provider name or email" value={draft.provider} onChange={set('provider')} />
        <Select label="Status" placeholder="Any status" value={draft.status} onChange={set('status')} options={SESSION_STATUSES.map((s) => ({ value: s, label: s }))} />
        <Input label="Created from" type="date" value={draft.from} onChange={set('from')} />
        <Input label="Created before" type="date" value={draft.to} onChange={set('to')} />
        <div className="flex gap-2">
          <Button type="submit">Filter</Button>
          <Button
            variant="secondary"
            onClick={() => {
              const empty = { partner_id: '', provider: '', provider_id: '', status: '', from: '', to: '' };
              setDraft(empty);
              setFilters(empty);
            }}
          >
            Clear
          </Button>
        </div>
      </form>
      {list.isPending ? <Loading /> : list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : (
        <>
          <Table
            caption="Sessions"
            rows={list.rows}
            rowKey={(s) => s.ambient_session_id}
            empty="No sessions match."
            columns={[
              {
                key: 'id',
                header: 'Session',
                cell: (s) => (
                  <Link className="font-mono text-xs text-blue-800 underline" href={`/admin/sessions/${s.ambient_session_id}`}>
                    {s.ambient_session_id}
                  </Link>
                ),
              },
              { key: 'status', header: 'Status', cell: (s) => <Badge tone={statusTone(s.status)}>{s.status}</Badge> },
              { key: 'partner', header: 'Partner', cell: (s) => <code className="text-xs">{s.partner_id}</code> },
              { key: 'provider', header: 'Provider', cell: (s) => <span title={s.provider_id}>{s.provider_name}{s.provider_email ? <span className="block text-xs text-slate-600">{s.provider_email}</span> : null}</span> },
              { key: 'audio', header: 'Audio', cell: (s) => `${Math.round(s.audio_ms / 1000)} s` },
              { key: 'created', header: 'Created', cell: (s) => <Time iso={s.created_at} /> },
              { key: 'updated', header: 'Updated', cell: (s) => <Time iso={s.updated_at} /> },
            ]}
          />
          <LoadMore list={list} />
        </>
      )}
    </>
  );
}
