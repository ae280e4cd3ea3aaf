import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { PartnerList } from '@/components/admin/PartnerList';
import { requireAdminPage } from '../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Partners — Ambient admin' };

export default async function Page() {
  if (!(await requireAdminPage(`/admin/partners`))) return <Forbidden />;
  return (
    <Suspense>
      <PartnerList />
    </Suspense>
  );
}
