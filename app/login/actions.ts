'use server';
import { AuthError } from 'next-auth';
import { headers } from 'next/headers';
import { z } from 'zod';
import { clientAddress, homeFor, safeCallbackUrl, signIn, signOut, SignInRateLimited } from '@/auth';
import { contextForNext } from '@/server/next-context';
import { findConsoleUser } from '@/server/domain/users/find-console-user';
import { checkSignInLimit } from '@/server/domain/users/check-sign-in-limit';

function tooManyAttempts(waitSeconds: number | null): string {
  const when = waitSeconds === null ? 'in a few minutes' : waitSeconds < 90 ? `in ${waitSeconds} seconds` : `in ${Math.ceil(waitSeconds / 60)} minutes`;
  return `Too many failed sign-in attempts. Try again ${when}.`;
}

export interface LoginState {
  error: string | null;
  email: string;
}

export async function loginAction(_prev: LoginState, form: FormData): Promise<LoginState> {
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  if (!email) return { error: 'Enter your email address.', email };
  if (!password) return { error: 'Enter your password.', email };
  // Only a well-formed address has counters; anything else is refused by authorize() without one.
  const account = z.string().email().max(320).safeParse(email.toLowerCase());
  const wait = account.success ? await checkSignInLimit(contextForNext(), account.data, clientAddress(await headers())) : 0;
  if (wait > 0) return { error: tooManyAttempts(wait), email };
  let destination = safeCallbackUrl(form.get('callbackUrl'), '');
  if (!destination) {
    const user = await findConsoleUser(contextForNext(), { email });
    destination = user ? homeFor(user.role) : '/';
  }
  try {
    await signIn('credentials', { email, password, redirectTo: destination });
  } catch (err) {
    // signIn finishes with a redirect, which Next implements by throwing; only auth failures are handled here.
    if (err instanceof SignInRateLimited || (err instanceof AuthError && (err as { code?: string }).code === 'rate_limited')) return { error: tooManyAttempts(null), email };
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
