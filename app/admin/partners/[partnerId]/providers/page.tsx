import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { ProviderList } from '@/components/admin/ProviderList';
import { requireAdminPage } from '../../../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Providers — Ambient admin' };

export default async function Page({ params }: { params: Promise<{ partnerId: string }> }) {
  const { partnerId } = await params;
  if (!(await requireAdminPage(`/admin/partners/${encodeURIComponent(partnerId)}/providers`))) return <Forbidden />;
  return (
    <Suspense>
      <ProviderList partnerId={partnerId} />
    </Suspense>
  );
}
