import { TemplatesPage } from '@/components/clinician/templates/TemplatesPage';
import { requireClinician } from '../require-clinician';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Note templates — Ambient' };

export default async function NoteTemplatesPage() {
  const { denied } = await requireClinician('/templates');
  if (denied) return denied;
  return (
    <main className="mx-auto max-w-3xl p-4">
      <h1 className="mb-4 text-2xl font-semibold">Note templates</h1>
      <TemplatesPage />
    </main>
  );
}
