import { notFound } from 'next/navigation';
import { VisitView } from '@/components/clinician/VisitView';
import { requireClinician } from '../../require-clinician';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Visit — Ambient' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function VisitPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { denied } = await requireClinician(`/visits/${id}`);
  if (denied) return denied;
  if (!UUID.test(id)) notFound();
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-7xl p-4">
      <VisitView id={id.toLowerCase()} />
    </main>
  );
}
