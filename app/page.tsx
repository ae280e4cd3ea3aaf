import Link from 'next/link';

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-3xl font-semibold">Ambient clinical documentation</h1>
      <p className="mt-4 text-slate-700">
        A self-hostable service that listens to a clinician–patient visit and returns a transcript, a note in
        LOINC-coded sections and coded structured data.
      </p>
      <ul className="mt-6 list-disc space-y-2 pl-6">
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
