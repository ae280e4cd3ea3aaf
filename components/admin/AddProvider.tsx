'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage, isApiClientError } from '@/lib/api/fetch';
import { api } from '@/lib/api/client';
import { CreateProviderRequest } from '@/lib/contracts/admin';
import { getPartner } from '@/lib/contracts/routes/admin-partners';
import { createPartnerProvider } from '@/lib/contracts/routes/admin-providers';
import { SPECIALTY_CODES } from '@/lib/info';
import { Button, Dialog, Input, Select, toast } from '@/components/ui';
import { adminKeys } from './queries';

const EMPTY = { name: '', email: '', specialty: '', organization_external_id: '', provider_id: '' };
type Fields = typeof EMPTY;
const label = (code: string) => code.charAt(0) + code.slice(1).toLowerCase().replace(/_/g, ' ');

/**
 * "Add provider": a dialog that adds a provider to the partner as register would. The same zod contract as
 * the API checks the fields, and the partner's type decides whether its provider_id is asked for.
 */
export function AddProvider({ partnerId }: { partnerId: string }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [f, setF] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const partner = useQuery({
    queryKey: adminKeys.partner(partnerId),
    queryFn: ({ signal }) => api.call(getPartner, { params: { partner_id: partnerId } }, { signal }),
  });
  const needsPid = partner.data ? partner.data.type !== 'STANDARD' : false;
  const set = (k: keyof Fields) => (e: { target: { value: string } }) => {
    setF((s) => ({ ...s, [k]: e.target.value }));
    setErrors((x) => ({ ...x, [k]: undefined }));
  };
  const add = useMutation({
    mutationFn: (body: CreateProviderRequest) => api.call(createPartnerProvider, { params: { partner_id: partnerId }, body }),
    onSuccess: (p) => {
      toast.success(`${p.name} was added.`);
      setOpen(false);
      setF(EMPTY);
      void qc.invalidateQueries({ queryKey: ['admin', 'providers', partnerId] });
    },
    onError: (err) => {
      // The server names the field first ("email: …"): show it there when it is one of ours.
      const m = isApiClientError(err) ? /^([a-z_]+): (.*)$/.exec(err.message) : null;
      if (m && m[1]! in EMPTY) setErrors({ [m[1]!]: m[2]! });
      else toast.error(errorMessage(err));
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    // Name and email are always sent (empty ones get the contract's message); empty optional fields are left out.
    const body = Object.fromEntries(Object.entries(f).filter(([k, v]) => k === 'name' || k === 'email' || v.trim() !== ''));
    const parsed = CreateProviderRequest.safeParse(body);
    const errs: Partial<Record<keyof Fields, string>> = {};
    if (!parsed.success) for (const i of parsed.error.issues) errs[String(i.path[0]) as keyof Fields] ??= i.message;
    if (needsPid && !f.provider_id.trim()) errs.provider_id = `is required for ${partner.data!.type} partners`;
    setErrors(errs);
    if (parsed.success && Object.keys(errs).length === 0) add.mutate(parsed.data);
  }
  return (
    <>
      <Button onClick={() => setOpen(true)} aria-haspopup="dialog">
        Add provider
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Add a provider"
        description={`The provider is registered with partner ${partnerId}, as if through the partner's register call.`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form="add-provider-form" loading={add.isPending}>
              Add provider
            </Button>
          </>
        }
      >
        <form id="add-provider-form" onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label="New provider">
          <Input label="Name" required value={f.name} onChange={set('name')} error={errors.name} autoComplete="off" />
          <Input label="Email" type="email" required value={f.email} onChange={set('email')} error={errors.email} autoComplete="off" />
          <Select
            label="Specialty"
            placeholder="Family medicine (default)"
            value={f.specialty}
            onChange={set('specialty')}
            options={SPECIALTY_CODES.map((c) => ({ value: c, label: label(c) }))}
            error={errors.specialty}
          />
          <Input label="Organisation" hint={`Its external id; console:${partnerId} when empty.`} value={f.organization_external_id} onChange={set('organization_external_id')} error={errors.organization_external_id} />
          {needsPid ? (
            <Input
              label="provider_id"
              required
              hint={`The partner's identifier for this clinician${partner.data?.provider_id_pattern ? `, matching ${partner.data.provider_id_pattern}` : ''}.`}
              value={f.provider_id}
              onChange={set('provider_id')}
              error={errors.provider_id}
            />
          ) : null}
        </form>
      </Dialog>
    </>
  );
}
