'use server';
import { AuthError } from 'next-auth';
import { homeFor, safeCallbackUrl, signIn, signOut } from '@/auth';
import { getAppContext } from '@/server/context';
import { findConsoleUser } from '@/server/domain/users/find-console-user';

export interface LoginState {
  error: string | null;
  email: string;
}

export async function loginAction(_prev: LoginState, form: FormData): Promise<LoginState> {
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  if (!email) return { error: 'Enter your email address.', email };
  if (!password) return { error: 'Enter your password.', email };
  let destination = safeCallbackUrl(form.get('callbackUrl'), '');
  if (!destination) {
    const user = await findConsoleUser(getAppContext(), { email });
    destination = user ? homeFor(user.role) : '/';
  }
  try {
    await signIn('credentials', { email, password, redirectTo: destination });
  } catch (err) {
    // signIn finishes with a redirect, which Next implements by throwing; only auth failures are handled here.
    if (err instanceof AuthError) return { error: 'The email or password is not correct.', email };
    throw err;
  }
  return { error: null, email };
}

export async function oidcLoginAction(form: FormData): Promise<void> {
  await signIn('oidc', { redirectTo: safeCallbackUrl(form.get('callbackUrl'), '/admin') });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: '/login' });
}
