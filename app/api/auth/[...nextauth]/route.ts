import type { NextRequest } from 'next/server';
import { clientAddress, handlers } from '@/auth';
import { getAppContext } from '@/server/context';
import { checkSignInLimit } from '@/server/domain/users/check-sign-in-limit';
import { signInLimitedError } from '@/server/domain/users/sign-in-limits';

export const dynamic = 'force-dynamic';
export const { GET } = handlers;

/**
 * Password sign-ins over the sign-in failure limits answer 429 {code, message} with Retry-After here,
 * before next-auth turns every refusal into the same redirect; authorize() enforces the same limits for
 * the login page's server action.
 */
export async function POST(req: NextRequest): Promise<Response> {
  if (new URL(req.url).pathname.endsWith('/callback/credentials')) {
    const form = await req
      .clone()
      .formData()
      .catch(() => null);
    const email = form?.get('email');
    if (typeof email === 'string' && email.trim()) {
      const wait = await checkSignInLimit(getAppContext(), email.trim().toLowerCase(), clientAddress(req.headers));
      if (wait > 0) {
        const err = signInLimitedError(wait);
        return Response.json(err.toBody(), { status: 429, headers: { ...err.headers, 'cache-control': 'no-store' } });
      }
    }
  }
  return handlers.POST(req);
}
