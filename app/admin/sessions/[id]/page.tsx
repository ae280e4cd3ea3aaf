import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { SessionDetail } from '@/components/admin/SessionDetail';
import { requireAdminPage } from '../../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Session — Ambient admin' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!(await requireAdminPage(`/admin/sessions/${id}`))) return <Forbidden />;
  return (
    <Suspense>
      <SessionDetail sessionId={id} />
    </Suspense>
  );
}
