'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { errorMessage, isApiClientError } from '@/lib/api/fetch';
import { api } from '@/lib/api/client';
import { createPartner, updatePartner } from '@/lib/contracts/routes/admin-partners';
import {
  AccessLevel,
  CreatePartnerRequest,
  PartnerType,
  UpdatePartnerRequest,
  partnerRuleViolation,
  type Partner,
} from '@/lib/contracts/partners';
import { Button, Input, Select, Textarea, toast } from '@/components/ui';
import { OneTimeSecret } from './common';
import { adminKeys } from './queries';

type Fields = {
  partner_id: string;
  name: string;
  type: string;
  access_level: string;
  issuer: string;
  audience: string;
  jwks_source: 'uri' | 'inline';
  jwks_uri: string;
  jwks: string;
  email_claim: string;
  provider_id_pattern: string;
  webhook_url: string;
  notify_note_signed: boolean;
  clinic_name: string;
  clinic_phone: string;
};

function initial(p?: Partner): Fields {
  return {
    partner_id: p?.partner_id ?? '',
    name: p?.name ?? '',
    type: p?.type ?? 'STANDARD',
    access_level: p?.access_level ?? 'FULL',
    issuer: p?.issuer ?? '',
    audience: p?.audience ?? '',
    jwks_source: p?.jwks ? 'inline' : 'uri',
    jwks_uri: p?.jwks_uri ?? '',
    jwks: p?.jwks ? JSON.stringify(p.jwks, null, 2) : '',
    email_claim: p?.email_claim ?? 'email',
    provider_id_pattern: p?.provider_id_pattern ?? '',
    webhook_url: p?.webhook_url ?? '',
    notify_note_signed: p?.notify_note_signed ?? false,
    clinic_name: p?.clinic?.name ?? '',
    clinic_phone: p?.clinic?.phone ?? '',
  };
}

const TYPE_HELP: Record<string, string> = {
  STANDARD: 'Each clinician has their own partner_token; identity comes from its email claim.',
  BEARER: 'One shared token for many clinicians; provider_id identifies the clinician. Cannot be READONLY.',
  SINGLE_AUTH_TOKEN: 'One shared token for all clinicians; provider_id is required on every call.',
};

/**
 * Create or edit a partner. The same zod contract as the API decides what is valid, so the rules agree.
 * `only="webhook"` is a partner admin's form: the fields it may change, and nothing it may not.
 */
export function PartnerForm({ partner, onSaved, only }: { partner?: Partner; onSaved?: (p: Partner) => void; only?: 'webhook' }) {
  const editing = Boolean(partner);
  const [f, setF] = useState<Fields>(() => initial(partner));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<(Partner & { webhook_secret: string }) | null>(null);
  const qc = useQueryClient();
  const set = (k: keyof Fields) => (e: { target: { value: string } }) => setF((s) => ({ ...s, [k]: e.target.value }));

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      editing
        ? api.call(updatePartner, { params: { partner_id: partner!.partner_id }, body: body as z.input<typeof UpdatePartnerRequest> })
        : api.call(createPartner, { body: body as z.input<typeof CreatePartnerRequest> }),
    onSuccess: (p) => {
      void qc.invalidateQueries({ queryKey: adminKeys.partners });
      if (editing) {
        toast.success(`Partner ${p.partner_id} saved.`);
        onSaved?.(p);
      } else {
        setCreated(p as Partner & { webhook_secret: string });
        toast.success(`Partner ${p.partner_id} created.`);
      }
    },
    onError: (err) => {
      // The server names the field first ("access_level: …"); put it next to that field when it is one of ours.
      const m = isApiClientError(err) ? /^([a-z_]+): (.*)$/.exec(err.message) : null;
      if (m && m[1]! in f) setErrors({ [m[1]!]: m[2]! });
      toast.error(errorMessage(err));
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const errs: Record<string, string> = {};
    const opt = (v: string) => (v.trim() === '' ? (editing ? null : undefined) : v.trim());
    let jwks: unknown = undefined;
    if (f.jwks_source === 'inline') {
      try {
        jwks = f.jwks.trim() ? JSON.parse(f.jwks) : undefined;
      } catch {
        errs.jwks = 'must be valid JSON (a JWKS: {"keys": [...]})';
      }
    }
    const body: Record<string, unknown> = {
      name: f.name,
      type: f.type,
      access_level: f.access_level,
      issuer: f.issuer,
      audience: opt(f.audience),
      jwks_uri: f.jwks_source === 'uri' ? opt(f.jwks_uri) : editing ? null : undefined,
      jwks: f.jwks_source === 'inline' ? (jwks ?? (editing ? null : undefined)) : editing ? null : undefined,
      email_claim: f.email_claim.trim() || undefined,
      provider_id_pattern: opt(f.provider_id_pattern),
      webhook_url: opt(f.webhook_url),
      notify_note_signed: f.notify_note_signed,
      // The clinic printed on after-visit summaries (issue 29); an empty name clears it.
      clinic: f.clinic_name.trim() ? { name: f.clinic_name.trim(), phone: opt(f.clinic_phone) ?? null } : editing ? null : undefined,
    };
    if (!editing && f.partner_id.trim()) body.partner_id = f.partner_id.trim();
    if (only === 'webhook') for (const k of Object.keys(body)) if (k !== 'webhook_url' && k !== 'notify_note_signed' && k !== 'clinic') delete body[k];
    const parsed = editing ? UpdatePartnerRequest.safeParse(body) : CreatePartnerRequest.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'name');
        errs[key] ??= issue.message;
      }
    } else if (editing && only !== 'webhook') {
      const v = partnerRuleViolation(body as Parameters<typeof partnerRuleViolation>[0]);
      if (v) errs[v.field] ??= v.message;
    }
    if (errs.jwks_uri && f.jwks_source === 'inline') {
      errs.jwks = errs.jwks_uri;
      delete errs.jwks_uri;
    }
    setErrors(errs);
    if (Object.keys(errs).length) {
      toast.error('Check the highlighted fields.');
      return;
    }
    save.mutate(parsed.data as Record<string, unknown>);
  }

  if (created) {
    return (
      <div className="flex flex-col gap-4">
        <p className="text-sm">
          Partner <strong>{created.name}</strong> (<code>{created.partner_id}</code>) was created.
        </p>
        <OneTimeSecret label="Webhook signing secret" value={created.webhook_secret} />
        <p>
          <Link className="text-blue-800 underline" href={`/admin/partners/${encodeURIComponent(created.partner_id)}`}>
            Open partner {created.partner_id}
          </Link>
        </p>
      </div>
    );
  }

  const bearer = f.type === 'BEARER';
  const webhookFields = (
    <>
      <Input label="Clinic name" hint="Printed on patients' after-visit summaries." value={f.clinic_name} onChange={set('clinic_name')} error={errors.clinic} />
      <Input label="Clinic phone" type="tel" hint="How a patient reaches the clinic." value={f.clinic_phone} onChange={set('clinic_phone')} />
      <Input label="Webhook URL" type="url" hint="Where session notifications are sent." value={f.webhook_url} onChange={set('webhook_url')} error={errors.webhook_url} fieldClassName="md:col-span-2" />
      <div className="flex items-start gap-2 md:col-span-2">
        <input
          id="notify_note_signed"
          type="checkbox"
          className="mt-1 h-4 w-4"
          checked={f.notify_note_signed}
          onChange={(e) => setF((s) => ({ ...s, notify_note_signed: e.target.checked }))}
          aria-describedby="notify_note_signed-hint"
        />
        <div>
          <label htmlFor="notify_note_signed" className="text-sm font-medium">
            Send a NOTE_SIGNED webhook when a clinician signs a note
          </label>
          <p id="notify_note_signed-hint" className="text-xs text-slate-700">
            Off unless the partner's receiver accepts it: a receiver built only to the spec answers 400 to an unknown status.
          </p>
        </div>
      </div>
    </>
  );
  const saveButton = (
    <div className="md:col-span-2">
      <Button type="submit" loading={save.isPending}>
        {editing ? 'Save changes' : 'Create partner'}
      </Button>
    </div>
  );
  if (only === 'webhook') {
    return (
      <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4 md:grid-cols-2" aria-label="Edit webhook">
        {webhookFields}
        {saveButton}
      </form>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4 md:grid-cols-2" aria-label={editing ? 'Edit partner' : 'New partner'}>
      {!editing ? (
        <Input label="Partner ID" hint="Optional; generated when empty. Letters, digits, dot, dash, underscore." value={f.partner_id} onChange={set('partner_id')} error={errors.partner_id} />
      ) : null}
      <Input label="Name" required value={f.name} onChange={set('name')} error={errors.name} />
      <Select
        label="Type"
        required
        value={f.type}
        onChange={(e) => setF((s) => ({ ...s, type: e.target.value, access_level: e.target.value === 'BEARER' ? 'FULL' : s.access_level }))}
        options={PartnerType.options.map((t) => ({ value: t, label: t }))}
        hint={TYPE_HELP[f.type]}
        error={errors.type}
      />
      <Select
        label="Access level"
        required
        value={f.access_level}
        onChange={set('access_level')}
        options={AccessLevel.options.map((a) => ({ value: a, label: a, disabled: bearer && a === 'READONLY' }))}
        hint={bearer ? 'BEARER partners cannot be READONLY.' : 'READONLY partners can read but not create or change sessions.'}
        error={errors.access_level}
      />
      <Input label="Issuer (iss)" required value={f.issuer} onChange={set('issuer')} error={errors.issuer} />
      <Input label="Audience (aud)" hint="Optional; checked when set." value={f.audience} onChange={set('audience')} error={errors.audience} />
      <fieldset className="md:col-span-2">
        <legend className="text-sm font-medium text-slate-800">Signing keys</legend>
        <div className="mt-1 flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="jwks_source" value="uri" checked={f.jwks_source === 'uri'} onChange={() => setF((s) => ({ ...s, jwks_source: 'uri' }))} />
            JWKS URI
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="jwks_source" value="inline" checked={f.jwks_source === 'inline'} onChange={() => setF((s) => ({ ...s, jwks_source: 'inline' }))} />
            Inline JWKS
          </label>
        </div>
      </fieldset>
      {f.jwks_source === 'uri' ? (
        <Input label="JWKS URI" type="url" required value={f.jwks_uri} onChange={set('jwks_uri')} error={errors.jwks_uri} fieldClassName="md:col-span-2" />
      ) : (
        <Textarea label="Inline JWKS (JSON)" required rows={6} value={f.jwks} onChange={set('jwks')} error={errors.jwks} fieldClassName="md:col-span-2" />
      )}
      <Input label="Email claim" hint="The token claim that holds the clinician's email." value={f.email_claim} onChange={set('email_claim')} error={errors.email_claim} />
      <Input
        label="provider_id pattern"
        hint={f.type === 'STANDARD' ? 'Regular expression; optional for STANDARD partners.' : 'Regular expression; required for this type.'}
        required={f.type !== 'STANDARD'}
        value={f.provider_id_pattern}
        onChange={set('provider_id_pattern')}
        error={errors.provider_id_pattern}
      />
      {webhookFields}
      {saveButton}
    </form>
  );
}
