import { NewVisitForm } from '@/components/clinician/NewVisitForm';
import { requireClinician } from '../../require-clinician';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'New visit — Ambient' };

export default async function NewVisitPage() {
  const { denied } = await requireClinician('/visits/new');
  if (denied) return denied;
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-3xl p-4">
      <h1 className="mb-4 text-2xl font-semibold">New visit</h1>
      <NewVisitForm />
    </main>
  );
}
