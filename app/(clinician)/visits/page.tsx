import { VisitsList } from '@/components/clinician/VisitsList';
import { requireClinician } from '../require-clinician';

export const dynamic = 'force-dynamic';
export const metadata = { title: "Today's visits — Ambient" };

export default async function VisitsPage() {
  const { denied } = await requireClinician('/visits');
  if (denied) return denied;
  return (
    <main className="mx-auto max-w-6xl p-4">
      <VisitsList />
    </main>
  );
}
