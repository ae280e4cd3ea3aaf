import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { Users } from '@/components/admin/Users';
import { requireAdminPage } from '../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Users — Ambient admin' };

export default async function Page() {
  if (!(await requireAdminPage(`/admin/users`))) return <Forbidden />;
  return (
    <Suspense>
      <Users />
    </Suspense>
  );
}
