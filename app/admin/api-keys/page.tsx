import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { ApiKeys } from '@/components/admin/ApiKeys';
import { requireAdminPage } from '../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'API keys — Ambient admin' };

export default async function Page() {
  if (!(await requireAdminPage(`/admin/api-keys`))) return <Forbidden />;
  return (
    <Suspense>
      <ApiKeys />
    </Suspense>
  );
}
