'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { errorMessage } from '@/lib/api/fetch';
import { api } from '@/lib/api/client';
import { getDelivery, redeliverWebhook } from '@/lib/contracts/routes/webhooks';
import { Badge, Button, statusTone, toast } from '@/components/ui';
import { DefinitionList, ErrorState, JsonBlock, Loading, PageHeader, Section, Time } from './common';
import { adminKeys } from './queries';

export function DeliveryDetail({ deliveryId }: { deliveryId: string }) {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: adminKeys.delivery(deliveryId),
    queryFn: ({ signal }) => api.call(getDelivery, { params: { id: deliveryId } }, { signal }),
    refetchInterval: (query) => (query.state.data && ['pending', 'delivering'].includes(query.state.data.status) ? 2000 : false),
  });
  const redeliver = useMutation({
    mutationFn: () => api.call(redeliverWebhook, { params: { id: deliveryId } }),
    onSuccess: () => {
      toast.success('Re-delivery queued.');
      void qc.invalidateQueries({ queryKey: adminKeys.delivery(deliveryId) });
      void qc.invalidateQueries({ queryKey: ['admin', 'deliveries'] });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const d = q.data;
  return (
    <>
      <PageHeader
        title="Webhook delivery"
        description={
          <>
            <code className="text-xs">{d.id}</code> <Badge tone={statusTone(d.status)}>{d.status}</Badge>
          </>
        }
        actions={
          <Button onClick={() => redeliver.mutate()} loading={redeliver.isPending}>
            Re-deliver
          </Button>
        }
      />
      <Section title="Delivery">
        <DefinitionList
          items={[
            ['Event', d.event_type],
            ['Partner', <Link key="p" className="text-blue-800 underline" href={`/admin/partners/${encodeURIComponent(d.partner_id)}`}>{d.partner_id}</Link>],
            ['Session', d.session_id ? <Link key="s" className="text-blue-800 underline" href={`/admin/sessions/${d.session_id}`}>{d.session_id}</Link> : '—'],
            ['URL', d.url],
            ['webhook-id (event key)', <code key="k" className="text-xs">{d.event_key}</code>],
            ['Attempts', String(d.attempts)],
            ['Last response', d.last_response_code !== null ? String(d.last_response_code) : (d.last_error ?? '—')],
            ['Next attempt', <Time key="n" iso={d.next_attempt_at} />],
            ['Delivered', <Time key="dl" iso={d.delivered_at} />],
            ['Created', <Time key="c" iso={d.created_at} />],
          ]}
        />
      </Section>
      <Section title="Payload">
        <p className="mb-2 text-xs text-slate-700">The exact body sent; the X-API-Key signature covers these bytes.</p>
        <JsonBlock value={d.body} label="Exact request body" />
      </Section>
      <Section title="Attempts">
        {d.attempts_log.length === 0 ? (
          <p className="text-sm text-slate-600">No attempt yet.</p>
        ) : (
          <ol className="flex flex-col gap-4">
            {d.attempts_log.map((a) => (
              <li key={a.attempt} className="rounded-md border border-slate-200 p-3 text-sm">
                <p className="mb-2 font-medium">
                  Attempt {a.attempt} · <Time iso={a.at} /> · {a.response_code !== null ? `HTTP ${a.response_code}` : (a.error ?? 'no response')}
                  {a.duration_ms !== null ? ` · ${a.duration_ms} ms` : ''}
                </p>
                <JsonBlock value={a.request_headers} label={`Request headers of attempt ${a.attempt}`} />
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}
