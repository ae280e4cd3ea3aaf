import { notFound } from 'next/navigation';
import { VisitSummary } from '@/components/clinician/VisitSummary';
import { requireClinician } from '../../../require-clinician';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Visit summary — Ambient' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function VisitSummaryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { denied } = await requireClinician(`/visits/${id}/summary`);
  if (denied) return denied;
  if (!UUID.test(id)) notFound();
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-7xl p-4 print:max-w-none print:p-0">
      <VisitSummary id={id.toLowerCase()} />
    </main>
  );
}
