'use client';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type WebhookDelivery } from '@/lib/contracts/webhooks';
import { Badge, Button, Input, Select, Table, statusTone } from '@/components/ui';
import { ErrorState, Loading, PageHeader, Time } from './common';
import { LoadMore, useCursorList, useUrlFilters } from './cursor-list';
import { listDeliveries } from '@/lib/contracts/routes/webhooks';
import { useAdminUser } from './admin-user';
import { partnerOptions, usePartners } from './queries';

const KEYS = ['partner_id', 'session_id', 'status', 'event_type'] as const;

export function DeliveryList() {
  const user = useAdminUser();
  const partners = usePartners();
  const [filters, setFilters] = useUrlFilters(KEYS);
  const [draft, setDraft] = useState(filters);
  const list = useCursorList<WebhookDelivery, 'deliveries'>(['admin', 'deliveries'], listDeliveries, 'deliveries', filters);
  const set = (k: (typeof KEYS)[number]) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  function apply(e: FormEvent) {
    e.preventDefault();
    setFilters(draft);
  }
  return (
    <>
      <PageHeader title="Webhook deliveries" description="Every notification sent to partners, with its attempts. Open one to see the exact payload and re-deliver it." />
      <form onSubmit={apply} aria-label="Delivery filters" className="mb-4 grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-5">
        {user.role === 'service_admin' ? (
          <Select label="Partner" placeholder="All partners" value={draft.partner_id} onChange={set('partner_id')} options={partnerOptions(partners.data)} />
        ) : null}
        <Input label="Session ID" placeholder="UUID" value={draft.session_id} onChange={set('session_id')} />
        <Select label="Status" placeholder="Any status" value={draft.status} onChange={set('status')} options={DELIVERY_STATUSES.map((s) => ({ value: s, label: s }))} />
        <Select label="Event" placeholder="Any event" value={draft.event_type} onChange={set('event_type')} options={WEBHOOK_EVENT_TYPES.map((s) => ({ value: s, label: s }))} />
        <div>
          <Button type="submit">Filter</Button>
        </div>
      </form>
      {list.isPending ? <Loading /> : list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : (
        <>
          <Table
            caption="Webhook deliveries"
            rows={list.rows}
            rowKey={(d) => d.id}
            empty="No deliveries match."
            columns={[
              { key: 'id', header: 'Delivery', cell: (d) => <Link className="font-mono text-xs text-blue-800 underline" href={`/admin/webhooks/${d.id}`}>{d.id}</Link> },
              { key: 'event', header: 'Event', cell: (d) => d.event_type },
              { key: 'status', header: 'Status', cell: (d) => <Badge tone={statusTone(d.status)}>{d.status}</Badge> },
              { key: 'partner', header: 'Partner', cell: (d) => <code className="text-xs">{d.partner_id}</code> },
              {
                key: 'session',
                header: 'Session',
                cell: (d) => (d.session_id ? <Link className="font-mono text-xs text-blue-800 underline" href={`/admin/sessions/${d.session_id}`}>{d.session_id.slice(0, 8)}…</Link> : '—'),
              },
              { key: 'attempts', header: 'Attempts', cell: (d) => d.attempts },
              { key: 'code', header: 'Last response', cell: (d) => d.last_response_code ?? d.last_error ?? '—' },
              { key: 'created', header: 'Created', cell: (d) => <Time iso={d.created_at} /> },
            ]}
          />
          <LoadMore list={list} />
        </>
      )}
    </>
  );
}
