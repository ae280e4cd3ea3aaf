import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { clientAddress, handlers } from '@/auth';
import { contextForNext } from '@/server/next-context';
import { checkSignInLimit } from '@/server/domain/users/check-sign-in-limit';
import { signInLimitedError } from '@/server/domain/users/sign-in-limits';

export const dynamic = 'force-dynamic';

const Email = z.string().trim().toLowerCase().email().max(320);
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
    // What authorize() would not accept as an email (NUL characters included) is refused there anyway.
    const email = Email.safeParse(form?.get('email'));
    if (email.success) {
      const wait = await checkSignInLimit(contextForNext(), email.data, clientAddress(req.headers));
      if (wait > 0) {
        const err = signInLimitedError(wait);
        return Response.json(err.toBody(), { status: 429, headers: { ...err.headers, 'cache-control': 'no-store' } });
      }
    }
  }
  return handlers.POST(req);
}
