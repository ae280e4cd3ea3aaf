/**
 * Console sign-in (next-auth v5): email + password users from the `users` table, and an OIDC provider when
 * AUTH_OIDC_ISSUER / AUTH_OIDC_CLIENT_ID / AUTH_OIDC_CLIENT_SECRET are set. Sessions are JWT cookies that
 * expire after AUTH_SESSION_MAX_AGE seconds (8 h by default). All of it is read from Config.auth
 * (server/config.ts); the secret is AUTH_SECRET or the one createServices generated for the data directory.
 */
import NextAuth, { CredentialsSignin, customFetch, type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { contextForNext } from '@/server/next-context';
import { policyFetch } from '@/server/http/outbound-request';
import { verifyCredentials } from '@/server/domain/users/verify-credentials';
import { isApiError } from '@/lib/errors';
import { findConsoleUser } from '@/server/domain/users/find-console-user';
import type { ConsoleRole, ConsoleUser } from '@/server/domain/users/console-user';
import { safeCallbackUrl, safeRedirect } from '@/app/login/safe-callback-url';

export { safeCallbackUrl };

export type { ConsoleRole, ConsoleUser };

/** Over the sign-in failure limits (server/domain/users/sign-in-limits.ts); the code reaches the login page. */
export class SignInRateLimited extends CredentialsSignin {
  code = 'rate_limited';
}

/**
 * The client's address: server/main.ts overwrites x-real-ip with the socket's, or with the forwarded client's
 * when the socket is a TRUSTED_PROXIES proxy (server/http/client-address.ts), so a client cannot choose it.
 */
export function clientAddress(headers: Headers): string {
  return headers.get('x-real-ip') || 'unknown';
}

const CredentialsInput = z.object({ email: z.string().trim().email().max(320), password: z.string().min(1).max(1024) });

declare module 'next-auth' {
  interface Session {
    user: { id: string; email: string; name?: string | null; role: ConsoleRole; partnerId: string | null; providerId: string | null };
  }
}

function oidcProvider(): NextAuthConfig['providers'][number] | null {
  const oidc = contextForNext().config.auth.oidc;
  if (!oidc) return null;
  return {
    id: 'oidc',
    name: oidc.name,
    type: 'oidc',
    issuer: oidc.issuer,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    checks: ['pkce', 'state', 'nonce'],
    // Discovery, token and userinfo requests go through the outbound policy like every server-side fetch.
    [customFetch]: policyFetch({ allowPrivate: contextForNext().config.webhookAllowPrivate, timeoutMs: 10_000, maxResponseBytes: 1024 * 1024, purpose: 'OIDC' }),
  };
}

export function oidcEnabled(): boolean {
  return oidcProvider() !== null;
}

function config(): NextAuthConfig {
  const providers: NextAuthConfig['providers'] = [
    Credentials({
      id: 'credentials',
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw, request) {
        const parsed = CredentialsInput.safeParse(raw);
        if (!parsed.success) return null;
        try {
          const user = await verifyCredentials(contextForNext(), parsed.data.email, parsed.data.password, clientAddress(request.headers));
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        } catch (err) {
          if (isApiError(err) && err.status === 429) throw new SignInRateLimited();
          throw err;
        }
      },
    }),
  ];
  const oidc = oidcProvider();
  if (oidc) providers.push(oidc);
  const settings = contextForNext().config.auth;
  return {
    providers,
    secret: settings.secret,
    // As before this setting moved here: the request's Host names the origin (set AUTH_URL to pin it, README).
    trustHost: true,
    session: { strategy: 'jwt', maxAge: settings.sessionMaxAgeSeconds },
    pages: { signIn: '/login', error: '/login' },
    callbacks: {
      // Every redirect next-auth makes (after sign-in, sign-out, errors) stays on this origin.
      redirect({ url, baseUrl }) {
        return safeRedirect(url, baseUrl);
      },
      // OIDC users are not created on the fly: an administrator creates them first (matched by email).
      async signIn({ user, account }) {
        if (account?.provider !== 'oidc') return true;
        if (!user.email) return false;
        return (await findConsoleUser(contextForNext(), { email: user.email })) !== null;
      },
      async jwt({ token, user, account }) {
        if (user && account) {
          const found =
            account.provider === 'oidc' ? await findConsoleUser(contextForNext(), { email: user.email ?? '' }) : await findConsoleUser(contextForNext(), { id: user.id ?? '' });
          if (!found) return null;
          token.sub = found.id;
          token.email = found.email;
          token.name = found.name;
          token.role = found.role;
          token.partnerId = found.partnerId;
          token.providerId = found.providerId;
        }
        return token;
      },
      session({ session, token }) {
        session.user = {
          ...session.user,
          id: token.sub ?? '',
          email: token.email ?? '',
          name: (token.name as string | null | undefined) ?? null,
          role: token.role as ConsoleRole,
          partnerId: (token.partnerId as string | null | undefined) ?? null,
          providerId: (token.providerId as string | null | undefined) ?? null,
        };
        return session;
      },
    },
  };
}

// Lazy so the secret, session lifetime and OIDC settings are read from the context the server built.
export const { handlers, auth, signIn, signOut } = NextAuth(() => config());

/**
 * The signed-in console user, re-read from the database so a disabled or deleted user loses access at once.
 * Null when nobody is signed in.
 */
export async function currentConsoleUser(): Promise<ConsoleUser | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  return findConsoleUser(contextForNext(), { id });
}


/**
 * For server components and actions: redirects to /login when signed out. Returns the user and whether its
 * role is one of `roles`; a page shows its 403 view when it is not.
 */
export async function requireConsoleUser(roles: ConsoleRole[], callbackUrl: string): Promise<{ user: ConsoleUser; allowed: boolean }> {
  const user = await currentConsoleUser();
  if (!user) redirect(`/login?callbackUrl=${encodeURIComponent(safeCallbackUrl(callbackUrl))}`);
  return { user, allowed: roles.includes(user.role) };
}

/** Where a user lands after sign-in when no destination was asked for. */
export function homeFor(role: ConsoleRole): string {
  return role === 'clinician' ? '/visits' : '/admin';
}
