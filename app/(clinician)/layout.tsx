import { currentConsoleUser } from '@/auth';
import { signOutAction } from '@/app/login/actions';
import { AppHeader } from '@/components/clinician/AppHeader';
import { ClinicianProviders } from '@/components/clinician/Providers';

export const dynamic = 'force-dynamic';

export default async function ClinicianLayout({ children }: { children: React.ReactNode }) {
  // The pages enforce the clinician role themselves (layouts are not re-run on client navigation).
  const user = await currentConsoleUser();
  return (
    <ClinicianProviders>
      {user?.role === 'clinician' ? <AppHeader name={user.name ?? user.email} signOut={signOutAction} /> : null}
      {children}
    </ClinicianProviders>
  );
}
