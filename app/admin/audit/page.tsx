import { Suspense } from 'react';
import { Forbidden } from '@/components/ui';
import { AuditLog } from '@/components/admin/AuditLog';
import { requireAdminPage } from '../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Audit log — Ambient admin' };

export default async function Page() {
  if (!(await requireAdminPage(`/admin/audit`))) return <Forbidden />;
  return (
    <Suspense>
      <AuditLog />
    </Suspense>
  );
}
