import { Suspense } from 'react';
import { VisitsList } from '@/components/clinician/VisitsList';
import { requireClinician } from '../require-clinician';

export const dynamic = 'force-dynamic';
export const metadata = { title: "Today's visits — Ambient" };

export default async function VisitsPage() {
  const { denied } = await requireClinician('/visits');
  if (denied) return denied;
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-6xl p-4">
      {/* The list reads its day, view and search from the URL. */}
      <Suspense fallback={<p className="text-sm text-slate-700">Loading visits…</p>}>
        <VisitsList />
      </Suspense>
    </main>
  );
}
