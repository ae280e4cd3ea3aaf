'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api/fetch';
import { api } from '@/lib/api/client';
import { createApiKey, listApiKeys, revokeApiKey } from '@/lib/contracts/routes/admin-api-keys';
import type { ApiKey, ApiKeyWithSecret } from '@/lib/contracts/admin';
import { Badge, Button, Dialog, Input, Select, Table, toast } from '@/components/ui';
import { ErrorState, Loading, OneTimeSecret, PageHeader, Section, Time } from './common';
import { useAdminUser } from './admin-user';
import { adminKeys, partnerOptions, usePartners } from './queries';

export function ApiKeys() {
  const user = useAdminUser();
  const qc = useQueryClient();
  const partners = usePartners();
  const [name, setName] = useState('');
  const [partnerId, setPartnerId] = useState(user.partnerId ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const keys = useQuery({ queryKey: adminKeys.apiKeys, queryFn: ({ signal }) => api.call(listApiKeys, {}, { signal }) });
  const create = useMutation({
    mutationFn: () => api.call(createApiKey, { body: { name: name.trim(), partner_id: partnerId || undefined } }),
    onSuccess: (k) => {
      setCreated(k);
      setName('');
      void qc.invalidateQueries({ queryKey: adminKeys.apiKeys });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const revoke = useMutation({
    mutationFn: (k: ApiKey) => api.call(revokeApiKey, { params: { id: k.id } }),
    onSuccess: (k) => {
      toast.success(`Key "${k.name}" revoked.`);
      setRevoking(null);
      void qc.invalidateQueries({ queryKey: adminKeys.apiKeys });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setNameError('Give the key a name, e.g. what will use it.');
    setNameError(null);
    create.mutate();
  }
  return (
    <>
      <PageHeader title="API keys" description="Keys for automation on the admin API (Authorization: Bearer <key>). Only a hash is stored." />
      <Section title="Create a key">
        <form onSubmit={submit} className="grid grid-cols-1 items-end gap-3 sm:grid-cols-3">
          <Input label="Name" required value={name} onChange={(e) => setName(e.target.value)} error={nameError} />
          {user.role === 'service_admin' ? (
            <Select label="Scope" placeholder="Service-wide (all partners)" value={partnerId} onChange={(e) => setPartnerId(e.target.value)} options={partnerOptions(partners.data)} />
          ) : null}
          <div>
            <Button type="submit" loading={create.isPending}>
              Create key
            </Button>
          </div>
        </form>
        {created ? (
          <div className="mt-3">
            <OneTimeSecret label={`API key "${created.name}"`} value={created.key} />
          </div>
        ) : null}
      </Section>
      {keys.isPending ? <Loading /> : keys.isError ? <ErrorState error={keys.error} onRetry={() => void keys.refetch()} /> : (
        <Table
          caption="API keys"
          rows={keys.data.api_keys}
          rowKey={(k) => k.id}
          empty="No API keys."
          columns={[
            { key: 'name', header: 'Name', cell: (k) => <span className="font-medium">{k.name}</span> },
            { key: 'prefix', header: 'Starts with', cell: (k) => <code className="text-xs">{k.prefix}…</code> },
            { key: 'scope', header: 'Scope', cell: (k) => (k.partner_id ? <code className="text-xs">{k.partner_id}</code> : 'service-wide') },
            { key: 'by', header: 'Created by', cell: (k) => k.created_by ?? '—' },
            { key: 'created', header: 'Created', cell: (k) => <Time iso={k.created_at} /> },
            { key: 'used', header: 'Last used', cell: (k) => <Time iso={k.last_used_at} /> },
            { key: 'state', header: 'State', cell: (k) => (k.revoked_at ? <Badge tone="danger">revoked</Badge> : <Badge tone="success">active</Badge>) },
            {
              key: 'actions',
              header: <span className="sr-only">Actions</span>,
              cell: (k) =>
                k.revoked_at ? null : (
                  <Button size="sm" variant="danger" onClick={() => setRevoking(k)}>
                    Revoke<span className="sr-only"> {k.name}</span>
                  </Button>
                ),
            },
          ]}
        />
      )}
      <Dialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title={`Revoke "${revoking?.name}"?`}
        description="Requests with this key are refused (401) from now on. This cannot be undone."
        footer={
          <>
            <Button variant="secondary" onClick={() => setRevoking(null)}>
              Cancel
            </Button>
            <Button variant="danger" loading={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking)}>
              Revoke key
            </Button>
          </>
        }
      />
    </>
  );
}
