import { currentConsoleUser } from '@/auth';
import { signOutAction } from '@/app/login/actions';
import { AppHeader } from '@/components/clinician/AppHeader';
import { ClinicianProviders } from '@/components/clinician/Providers';
import { Announcer } from '@/components/clinician/announce';

export const dynamic = 'force-dynamic';

export default async function ClinicianLayout({ children }: { children: React.ReactNode }) {
  // The pages enforce the clinician role themselves (layouts are not re-run on client navigation).
  const user = await currentConsoleUser();
  return (
    <ClinicianProviders>
      {/* The first stop of Tab on every page: past the header to the page's <main id="main">. */}
      <a
        href="#main"
        className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-blue-900 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:outline-2 focus:outline-blue-700"
      >
        Skip to main content
      </a>
      {user?.role === 'clinician' ? <AppHeader name={user.name ?? user.email} signOut={signOutAction} /> : null}
      {children}
      <Announcer />
    </ClinicianProviders>
  );
}
