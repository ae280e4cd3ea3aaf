import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { DeliveryDetail } from '@/components/admin/DeliveryDetail';
import { requireAdminPage } from '../../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Webhook delivery — Ambient admin' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!(await requireAdminPage(`/admin/webhooks/${id}`))) return <Forbidden />;
  return (
    <Suspense>
      <DeliveryDetail deliveryId={id} />
    </Suspense>
  );
}
