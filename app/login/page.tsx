import { redirect } from 'next/navigation';
import { currentConsoleUser, homeFor, oidcEnabled, safeCallbackUrl } from '@/auth';
import { Button } from '@/components/ui';
import { LoginForm } from './LoginForm';
import { oidcLoginAction } from './actions';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in — Ambient' };

const ERRORS: Record<string, string> = {
  CredentialsSignin: 'The email or password is not correct.',
  AccessDenied: 'This account is not allowed to sign in. Ask an administrator to create your user.',
  Configuration: 'Sign-in is not configured correctly on the server.',
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const callbackUrl = safeCallbackUrl(sp.callbackUrl, '');
  const user = await currentConsoleUser();
  if (user) redirect(callbackUrl || homeFor(user.role));
  const errorKey = typeof sp.error === 'string' ? sp.error : null;
  const initialError = errorKey ? (ERRORS[errorKey] ?? 'Sign-in failed. Try again.') : null;
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="mb-1 text-2xl font-semibold">Sign in</h1>
        <p className="mb-6 text-sm text-slate-700">Ambient clinical documentation console</p>
        <LoginForm callbackUrl={callbackUrl} initialError={initialError} />
        {oidcEnabled() ? (
          <form action={oidcLoginAction} className="mt-4 border-t border-slate-200 pt-4">
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <Button type="submit" variant="secondary" className="w-full">
              Sign in with single sign-on
            </Button>
          </form>
        ) : null}
      </div>
    </main>
  );
}
