import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { PartnerDetail } from '@/components/admin/PartnerDetail';
import { requireAdminPage } from '../../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Partner — Ambient admin' };

export default async function Page({ params }: { params: Promise<{ partnerId: string }> }) {
  const { partnerId } = await params;
  if (!(await requireAdminPage(`/admin/partners/${encodeURIComponent(partnerId)}`))) return <Forbidden />;
  return (
    <Suspense>
      <PartnerDetail partnerId={partnerId} />
    </Suspense>
  );
}
