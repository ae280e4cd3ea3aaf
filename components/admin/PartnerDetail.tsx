'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api/fetch';
import { api } from '@/lib/api/client';
import { getPartner, rotateWebhookSecret } from '@/lib/contracts/routes/admin-partners';
import { testPartnerTrust } from '@/lib/contracts/routes/admin-providers';
import { sendTestWebhook } from '@/lib/contracts/routes/webhooks';
import type { Partner } from '@/lib/contracts/partners';
import { Badge, Button, Dialog, Textarea, toast } from '@/components/ui';
import { DefinitionList, ErrorState, JsonBlock, Loading, OneTimeSecret, PageHeader, Section, Time } from './common';
import { PartnerForm } from './PartnerForm';
import { adminKeys } from './queries';
import { useAdminUser } from './admin-user';

function TestTrust({ partnerId }: { partnerId: string }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const test = useMutation({
    mutationFn: (partner_token: string) =>
      api.call(testPartnerTrust, { params: { partner_id: partnerId }, body: { partner_token } }),
    onError: (err) => toast.error(errorMessage(err)),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!token.trim()) return setError('Paste a partner_token to test.');
    setError(null);
    test.mutate(token.trim());
  }
  const r = test.data;
  return (
    <Section title="Test trust">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <Textarea
          label="partner_token"
          hint="Paste a token from the partner's authorization server; it is checked exactly as register and login check it, and not stored."
          rows={4}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={error}
        />
        <div>
          <Button type="submit" loading={test.isPending}>
            Test token
          </Button>
        </div>
      </form>
      {r ? (
        <div role="status" aria-live="polite" data-testid="trust-result" className={`mt-3 rounded-md border px-3 py-2 text-sm ${r.valid ? 'border-green-300 bg-green-50 text-green-950' : 'border-red-300 bg-red-50 text-red-950'}`}>
          {r.valid ? (
            <>
              <strong>Valid.</strong> The token identifies <code>{r.email}</code>.
            </>
          ) : (
            <>
              <strong>Not valid:</strong> {r.reason}
            </>
          )}
        </div>
      ) : null}
    </Section>
  );
}

/** A partner admin edits its webhook here (the only partner settings it may change); a service admin in the full form. */
function Webhook({ partner, editable, onSaved }: { partner: Partner; editable: boolean; onSaved: (p: Partner) => void }) {
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useMutation({
    mutationFn: () => api.call(rotateWebhookSecret, { params: { partner_id: partner.partner_id } }),
    onSuccess: (r) => {
      setSecret(r.webhook_secret);
      setConfirm(false);
      toast.success('Webhook secret rotated.');
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const sendTest = useMutation({
    mutationFn: () => api.call(sendTestWebhook, { params: { partner_id: partner.partner_id } }),
    onError: (err) => toast.error(errorMessage(err)),
  });
  const t = sendTest.data;
  return (
    <Section
      title="Webhook"
      actions={
        editable ? (
          <Button size="sm" variant="secondary" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
            {editing ? 'Cancel editing' : 'Edit webhook'}
          </Button>
        ) : null
      }
    >
      {editing ? (
        <PartnerForm
          partner={partner}
          only="webhook"
          onSaved={(saved) => {
            onSaved(saved);
            setEditing(false);
          }}
        />
      ) : (
        <DefinitionList
          items={[
            ['URL', partner.webhook_url ?? 'not configured'],
            ['Signed-note notification', partner.notify_note_signed ? 'On (NOTE_SIGNED)' : 'Off'],
          ]}
        />
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => setConfirm(true)}>
          Rotate secret
        </Button>
        <Button variant="secondary" onClick={() => sendTest.mutate()} loading={sendTest.isPending} disabled={!partner.webhook_url}>
          Send test webhook
        </Button>
      </div>
      {secret ? (
        <div className="mt-3">
          <OneTimeSecret label="New webhook signing secret" value={secret} />
        </div>
      ) : null}
      {t ? (
        <div role="status" data-testid="test-webhook-result" className={`mt-3 rounded-md border px-3 py-2 text-sm ${t.delivered ? 'border-green-300 bg-green-50' : 'border-red-300 bg-red-50'}`}>
          {t.delivered ? 'Delivered' : 'Not delivered'}
          {t.response_code !== null ? ` — receiver answered ${t.response_code}` : ''}
          {t.error ? ` — ${t.error}` : ''}.{' '}
          <Link className="text-blue-800 underline" href={`/admin/webhooks/${t.delivery.id}`}>
            See the delivery
          </Link>
        </div>
      ) : null}
      <Dialog
        open={confirm}
        onClose={() => setConfirm(false)}
        title="Rotate the webhook secret?"
        description="Notifications are signed with the new secret from now on; the partner's receiver must be updated, or it will reject them."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => rotate.mutate()} loading={rotate.isPending}>
              Rotate secret
            </Button>
          </>
        }
      />
    </Section>
  );
}

export function PartnerDetail({ partnerId }: { partnerId: string }) {
  const qc = useQueryClient();
  // Trust settings and the name are service admins' to change (the API refuses a partner admin), so a
  // partner admin is not shown them as if they were its own to edit.
  const serviceAdmin = useAdminUser().role === 'service_admin';
  const [editing, setEditing] = useState(false);
  const q = useQuery({
    queryKey: adminKeys.partner(partnerId),
    queryFn: ({ signal }) => api.call(getPartner, { params: { partner_id: partnerId } }, { signal }),
  });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const p = q.data;
  const enc = encodeURIComponent(p.partner_id);
  return (
    <>
      <PageHeader
        title={p.name}
        description={
          <>
            Partner <code>{p.partner_id}</code> · <Badge>{p.type}</Badge> <Badge tone={p.access_level === 'READONLY' ? 'warning' : 'success'}>{p.access_level}</Badge>
          </>
        }
        actions={
          <>
            <Link className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100" href={`/admin/partners/${enc}/providers`}>
              Providers
            </Link>
            <Link className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100" href={`/admin/sessions?partner_id=${enc}`}>
              Sessions
            </Link>
            <Link className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100" href={`/admin/webhooks?partner_id=${enc}`}>
              Deliveries
            </Link>
          </>
        }
      />
      {serviceAdmin ? (
        <Section
          title="Trust settings"
          actions={
            <Button size="sm" variant="secondary" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
              {editing ? 'Cancel editing' : 'Edit'}
            </Button>
          }
        >
          {editing ? (
            <PartnerForm
              partner={p}
              onSaved={(saved) => {
                qc.setQueryData(adminKeys.partner(partnerId), saved);
                setEditing(false);
              }}
            />
          ) : (
            <>
              <DefinitionList
                items={[
                  ['Issuer', p.issuer],
                  ['Audience', p.audience ?? '—'],
                  ['JWKS URI', p.jwks_uri ?? '—'],
                  ['Email claim', p.email_claim],
                  ['provider_id pattern', p.provider_id_pattern ? <code>{p.provider_id_pattern}</code> : '—'],
                  ['Created', <Time key="c" iso={p.created_at} />],
                  ['Updated', <Time key="u" iso={p.updated_at} />],
                ]}
              />
              {p.jwks ? (
                <div className="mt-3">
                  <h3 className="mb-1 text-sm font-medium">Inline JWKS</h3>
                  <JsonBlock value={p.jwks} label="Inline JWKS" />
                </div>
              ) : null}
            </>
          )}
        </Section>
      ) : null}
      <TestTrust partnerId={p.partner_id} />
      <Webhook partner={p} editable={!serviceAdmin} onSaved={(saved) => qc.setQueryData(adminKeys.partner(partnerId), saved)} />
    </>
  );
}
