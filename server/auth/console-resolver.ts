import { decode } from '@auth/core/jwt';
import type { AppContext } from '../context';
import { findConsoleUser } from '../domain/users/find-console-user';
import { adminPrincipal, type AdminPrincipal, type ConsoleAdminResolver } from './authenticate-admin';

/** next-auth's session cookie names; the __Secure- one is used over HTTPS. Large tokens are split into .0, .1 … */
export const SESSION_COOKIE_NAMES = ['__Secure-authjs.session-token', 'authjs.session-token'];

function parseCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    if (out.has(name)) continue;
    // A malformed escape in any cookie (ours or another site's on this host) must not fail the request.
    try {
      out.set(name, decodeURIComponent(part.slice(i + 1).trim()));
    } catch {
      continue;
    }
  }
  return out;
}

function cookieValue(cookies: Map<string, string>, name: string): string | null {
  const whole = cookies.get(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join('') : null;
}

/**
 * A cookie rides along on cross-site requests too; the session cookie is SameSite=Lax, and a state-changing
 * request must additionally come from this origin, so a foreign page cannot drive the admin API.
 */
function sameOriginWrite(req: Request): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.get('origin');
  if (!origin) return true;
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export function createConsoleResolver(app: AppContext, secret: string | undefined): ConsoleAdminResolver {
  return async (req) => {
    if (!secret) return null;
    const cookies = parseCookies(req.headers.get('cookie'));
    for (const name of SESSION_COOKIE_NAMES) {
      const token = cookieValue(cookies, name);
      if (!token) continue;
      let payload: { sub?: string; exp?: number } | null = null;
      try {
        payload = await decode({ token, secret, salt: name });
      } catch {
        payload = null;
      }
      if (!payload?.sub || (payload.exp && payload.exp * 1000 < Date.now())) continue;
      if (!sameOriginWrite(req)) return null;
      // Re-read the user so a disabled user or changed role takes effect on the next request.
      const user = await findConsoleUser(app, { id: payload.sub });
      if (!user) return null;
      const principal: AdminPrincipal | null =
        user.role === 'service_admin'
          ? adminPrincipal('service_admin', null, `user:${user.email}`)
          : user.role === 'partner_admin' && user.partnerId
            ? adminPrincipal('partner_admin', user.partnerId, `user:${user.email}`)
            : null;
      return principal;
    }
    return null;
  };
}
