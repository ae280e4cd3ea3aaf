import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { DeliveryList } from '@/components/admin/DeliveryList';
import { requireAdminPage } from '../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Webhook deliveries — Ambient admin' };

export default async function Page() {
  if (!(await requireAdminPage(`/admin/webhooks`))) return <Forbidden />;
  return (
    <Suspense>
      <DeliveryList />
    </Suspense>
  );
}
