import Link from 'next/link';
import { redirect } from 'next/navigation';
import { currentConsoleUser, homeFor } from '@/auth';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Ambient clinical documentation' };

/** Signed-in users go straight to their work (clinicians to today's visits, admins to the console). */
export default async function Home() {
  const user = await currentConsoleUser();
  if (user) redirect(homeFor(user.role));
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-3xl font-semibold">Ambient clinical documentation</h1>
      <p className="mt-4 text-slate-700">
        A self-hostable service that listens to a clinician–patient visit and returns a transcript, a note in
        LOINC-coded sections and coded structured data.
      </p>
      <p className="mt-4 text-slate-700">
        Clinicians record visits and review their notes here; administrators manage partners, users and API keys.
      </p>
      <p className="mt-6">
        <Link className="inline-block rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2" href="/login">
          Sign in
        </Link>
      </p>
      <h2 className="mt-10 text-lg font-semibold">For developers</h2>
      <ul className="mt-2 list-disc space-y-2 pl-6">
        <li>
          <Link className="text-blue-700 underline" href="/docs">
            API reference
          </Link>
        </li>
        <li>
          <a className="text-blue-700 underline" href="/api/v1/openapi.json">
            OpenAPI document
          </a>
        </li>
      </ul>
    </main>
  );
}
