import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { SessionList } from '@/components/admin/SessionList';
import { requireAdminPage } from '../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sessions — Ambient admin' };

export default async function Page() {
  if (!(await requireAdminPage(`/admin/sessions`))) return <Forbidden />;
  return (
    <Suspense>
      <SessionList />
    </Suspense>
  );
}
