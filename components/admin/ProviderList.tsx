'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api/fetch';
import { api } from '@/lib/api/client';
import { disableProvider, enableProvider, listPartnerProviders } from '@/lib/contracts/routes/admin-providers';
import type { AdminProvider } from '@/lib/contracts/admin';
import { Badge, Button, Dialog, Input, Table, toast } from '@/components/ui';
import { ErrorState, Loading, PageHeader, Time } from './common';
import { LoadMore, useCursorList, useUrlFilters } from './cursor-list';
import { AddProvider } from './AddProvider';

export function ProviderList({ partnerId }: { partnerId: string }) {
  const [filters, setFilters] = useUrlFilters(['q'] as const);
  const [draft, setDraft] = useState(filters.q);
  const [pending, setPending] = useState<AdminProvider | null>(null);
  const qc = useQueryClient();
  const list = useCursorList<AdminProvider, 'providers'>(['admin', 'providers', partnerId], listPartnerProviders, 'providers', { q: filters.q }, { params: { partner_id: partnerId } });
  const toggle = useMutation({
    mutationFn: (p: AdminProvider) => api.call(p.disabled ? enableProvider : disableProvider, { params: { partner_id: partnerId, provider_id: p.provider_id } }),
    onSuccess: (p) => {
      toast.success(`${p.name} is now ${p.disabled ? 'disabled' : 'enabled'}.`);
      setPending(null);
      void qc.invalidateQueries({ queryKey: ['admin', 'providers', partnerId] });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  function search(e: FormEvent) {
    e.preventDefault();
    setFilters({ q: draft.trim() });
  }
  return (
    <>
      <PageHeader title="Providers" description={<>Clinicians registered through partner <code>{partnerId}</code>.</>} actions={<AddProvider partnerId={partnerId} />} />
      <form role="search" onSubmit={search} className="mb-4 flex flex-wrap items-end gap-2">
        <Input label="Search providers" hint="Name, email, provider_id or organisation" value={draft} onChange={(e) => setDraft(e.target.value)} fieldClassName="w-full sm:w-80" />
        <Button type="submit" variant="secondary" className="mb-5">
          Search
        </Button>
      </form>
      {list.isPending ? <Loading /> : list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : (
        <>
          <Table
            caption={`Providers of partner ${partnerId}`}
            rows={list.rows}
            rowKey={(p) => p.provider_id}
            empty={filters.q ? 'No provider matches the search.' : 'No providers have registered yet.'}
            columns={[
              { key: 'name', header: 'Name', cell: (p) => <span className="font-medium">{p.name}</span> },
              { key: 'email', header: 'Email', cell: (p) => p.email ?? '—' },
              { key: 'ppid', header: 'provider_id', cell: (p) => (p.partner_provider_id ? <code className="text-xs">{p.partner_provider_id}</code> : '—') },
              { key: 'org', header: 'Organisation', cell: (p) => <code className="text-xs">{p.organization_external_id}</code> },
              { key: 'specialty', header: 'Specialty', cell: (p) => p.specialty },
              { key: 'state', header: 'State', cell: (p) => (p.disabled ? <Badge tone="danger">disabled</Badge> : <Badge tone="success">{p.link_state}</Badge>) },
              { key: 'created', header: 'Created', cell: (p) => <Time iso={p.created_at} /> },
              { key: 'login', header: 'Last login', cell: (p) => <Time iso={p.last_login_at} /> },
              {
                key: 'actions',
                header: <span className="sr-only">Actions</span>,
                cell: (p) => (
                  <Button size="sm" variant={p.disabled ? 'secondary' : 'danger'} onClick={() => setPending(p)}>
                    {p.disabled ? 'Enable' : 'Disable'}
                    <span className="sr-only"> {p.name}</span>
                  </Button>
                ),
              },
            ]}
          />
          <LoadMore list={list} />
        </>
      )}
      <Dialog
        open={pending !== null}
        onClose={() => setPending(null)}
        title={pending?.disabled ? `Enable ${pending?.name}?` : `Disable ${pending?.name}?`}
        description={
          pending?.disabled
            ? 'The provider can log in and use the API again.'
            : 'The provider can no longer log in (403) and current service tokens stop working.'
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setPending(null)}>
              Cancel
            </Button>
            <Button variant={pending?.disabled ? 'primary' : 'danger'} loading={toggle.isPending} onClick={() => pending && toggle.mutate(pending)}>
              {pending?.disabled ? 'Enable' : 'Disable'}
            </Button>
          </>
        }
      />
    </>
  );
}
