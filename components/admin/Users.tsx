'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { errorMessage } from '@/lib/api/fetch';
import { api } from '@/lib/api/client';
import { createUser, listUsers } from '@/lib/contracts/routes/admin-users';
import { CreateUserRequest } from '@/lib/contracts/admin';
import { Badge, Button, Input, Select, Table, toast } from '@/components/ui';
import { ErrorState, Loading, PageHeader, Section, Time } from './common';
import { useAdminUser } from './admin-user';
import { adminKeys, partnerOptions, usePartners } from './queries';

export function Users() {
  const me = useAdminUser();
  const qc = useQueryClient();
  const partners = usePartners();
  const blank = { email: '', name: '', password: '', role: 'clinician', partner_id: me.partnerId ?? '', provider_email: '' };
  const [f, setF] = useState(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const users = useQuery({ queryKey: adminKeys.users, queryFn: ({ signal }) => api.call(listUsers, {}, { signal }) });
  const create = useMutation({
    mutationFn: (body: Record<string, string>) => api.call(createUser, { body: body as z.input<typeof CreateUserRequest> }),
    onSuccess: (u) => {
      toast.success(`User ${u.email} created.`);
      setF(blank);
      void qc.invalidateQueries({ queryKey: adminKeys.users });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((s) => ({ ...s, [k]: e.target.value }));
  function submit(e: FormEvent) {
    e.preventDefault();
    const body = Object.fromEntries(Object.entries(f).filter(([, v]) => v.trim() !== ''));
    const parsed = CreateUserRequest.safeParse(body);
    const errs: Record<string, string> = {};
    if (!parsed.success) for (const i of parsed.error.issues) errs[String(i.path[0] ?? 'email')] ??= i.message;
    if (!f.password) errs.password ??= 'is required';
    setErrors(errs);
    if (Object.keys(errs).length === 0) create.mutate(body);
  }
  const roles = me.role === 'service_admin' ? ['clinician', 'partner_admin', 'service_admin'] : ['clinician', 'partner_admin'];
  return (
    <>
      <PageHeader title="Users" description="People who sign in to the console and the clinician app." />
      <Section title="Create a user">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          <Input label="Email" type="email" required value={f.email} onChange={set('email')} error={errors.email} autoComplete="off" />
          <Input label="Name" value={f.name} onChange={set('name')} error={errors.name} />
          <Input label="Password" type="password" required value={f.password} onChange={set('password')} error={errors.password} hint="At least 10 characters." autoComplete="new-password" />
          <Select label="Role" value={f.role} onChange={set('role')} options={roles.map((r) => ({ value: r, label: r.replace('_', ' ') }))} error={errors.role} />
          {me.role === 'service_admin' && f.role !== 'service_admin' ? (
            <Select label="Partner" placeholder="Choose a partner" value={f.partner_id} onChange={set('partner_id')} options={partnerOptions(partners.data)} error={errors.partner_id} />
          ) : null}
          {f.role === 'clinician' ? (
            <Input label="Provider email" hint="The provider record this clinician acts as; default: the user's email." value={f.provider_email} onChange={set('provider_email')} error={errors.provider_email} />
          ) : null}
          <div className="sm:col-span-2 lg:col-span-3">
            <Button type="submit" loading={create.isPending}>
              Create user
            </Button>
          </div>
        </form>
      </Section>
      {users.isPending ? <Loading /> : users.isError ? <ErrorState error={users.error} onRetry={() => void users.refetch()} /> : (
        <Table
          caption="Users"
          rows={users.data.users}
          rowKey={(u) => u.id}
          empty="No users."
          columns={[
            { key: 'email', header: 'Email', cell: (u) => <span className="font-medium">{u.email}</span> },
            { key: 'name', header: 'Name', cell: (u) => u.name ?? '—' },
            { key: 'role', header: 'Role', cell: (u) => <Badge tone={u.role === 'service_admin' ? 'info' : 'neutral'}>{u.role}</Badge> },
            { key: 'partner', header: 'Partner', cell: (u) => u.partner_id ?? '—' },
            { key: 'state', header: 'State', cell: (u) => (u.disabled ? <Badge tone="danger">disabled</Badge> : <Badge tone="success">active</Badge>) },
            { key: 'login', header: 'Last sign-in', cell: (u) => <Time iso={u.last_login_at} /> },
          ]}
        />
      )}
    </>
  );
}
