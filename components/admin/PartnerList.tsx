'use client';
import Link from 'next/link';
import { Badge, Table } from '@/components/ui';
import { ErrorState, Loading, PageHeader, Time } from './common';
import { useAdminUser } from './admin-user';
import { usePartners } from './queries';

export function PartnerList() {
  const user = useAdminUser();
  const partners = usePartners();
  return (
    <>
      <PageHeader
        title="Partners"
        description="Systems that call the API for their clinicians: their trust settings and webhook."
        actions={
          user.role === 'service_admin' ? (
            <Link href="/admin/partners/new" className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
              New partner
            </Link>
          ) : null
        }
      />
      {partners.isPending ? <Loading /> : partners.isError ? <ErrorState error={partners.error} onRetry={() => void partners.refetch()} /> : (
        <Table
          caption="Partners"
          rows={partners.data}
          rowKey={(p) => p.partner_id}
          empty="No partners yet."
          columns={[
            { key: 'name', header: 'Name', cell: (p) => <Link className="font-medium text-blue-800 underline" href={`/admin/partners/${encodeURIComponent(p.partner_id)}`}>{p.name}</Link> },
            { key: 'id', header: 'Partner ID', cell: (p) => <code className="text-xs">{p.partner_id}</code> },
            { key: 'type', header: 'Type', cell: (p) => <Badge>{p.type}</Badge> },
            { key: 'access', header: 'Access', cell: (p) => <Badge tone={p.access_level === 'READONLY' ? 'warning' : 'success'}>{p.access_level}</Badge> },
            { key: 'issuer', header: 'Issuer', cell: (p) => <span className="break-all">{p.issuer}</span> },
            { key: 'webhook', header: 'Webhook', cell: (p) => (p.webhook_url ? <span className="break-all">{p.webhook_url}</span> : <span className="text-slate-600">none</span>) },
            { key: 'providers', header: <span className="sr-only">Providers</span>, cell: (p) => <Link className="text-blue-800 underline" href={`/admin/partners/${encodeURIComponent(p.partner_id)}/providers`}>Providers<span className="sr-only"> of {p.name}</span></Link> },
            { key: 'created', header: 'Created', cell: (p) => <Time iso={p.created_at} /> },
          ]}
        />
      )}
    </>
  );
}
