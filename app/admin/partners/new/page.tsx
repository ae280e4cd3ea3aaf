import { Forbidden } from '@/components/ui';
import { PartnerForm } from '@/components/admin/PartnerForm';
import { PageHeader } from '@/components/admin/common';
import { requireAdminPage } from '../../require-admin';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'New partner — Ambient admin' };

export default async function Page() {
  const user = await requireAdminPage('/admin/partners/new');
  // Only service admins onboard partners (the API refuses others too).
  if (!user || user.role !== 'service_admin') return <Forbidden role={user?.role} home="/admin" />;
  return (
    <>
      <PageHeader title="New partner" description="Onboard a partner system: its type, how its tokens are trusted, and where its webhooks go." />
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <PartnerForm />
      </div>
    </>
  );
}
