import Link from 'next/link';

/** The 403 view a page renders when the signed-in user's role may not see it. */
export function Forbidden({ role, home = '/' }: { role?: string; home?: string }) {
  return (
    <main className="mx-auto flex max-w-lg flex-col gap-3 p-8" aria-labelledby="forbidden-title">
      <p className="text-sm font-semibold text-red-800">Error 403</p>
      <h1 id="forbidden-title" className="text-2xl font-semibold">
        You do not have access to this page
      </h1>
      <p className="text-slate-700">
        {role ? `Your account (${role.replace('_', ' ')}) cannot open this part of the console.` : 'Your account cannot open this part of the console.'}
      </p>
      <p className="flex gap-4">
        <Link href={home} className="text-blue-800 underline">
          Go to your start page
        </Link>
        <Link href="/login" className="text-blue-800 underline">
          Sign in as someone else
        </Link>
      </p>
    </main>
  );
}
