import { RateLimiterDrizzle, type RateLimiterRes } from 'rate-limiter-flexible';
import { apiError, type ApiError } from '@/lib/errors';
import type { AppContext, SignInLimits } from '../../context';
import type { Db } from '../../db';
import { rateLimits } from '../../db/schema';

/**
 * Console password sign-in limits. Counters live in the database (rate_limits, one table for PGlite and
 * PostgreSQL), so every process of a deployment sees the same ones.
 *
 * - per account and address: after `perAccountAddress` consecutive failures the pair waits, 30 s by default,
 *   doubling per further failure up to `maxBlockSeconds`; a success clears it. An attacker elsewhere cannot
 *   touch the user's own pair.
 * - per address: `perAddress` failures (any accounts) within the window block that address for the rest of it,
 *   except for accounts that signed in from it in the last 30 days. Failures for emails with no account are
 *   counted apart, with their own `perAddress` budget: they make no per-account or pair rows, so a scanner of
 *   made-up emails fills no table, and spends none of the budget guesses at real accounts are counted in.
 *   Either budget, once spent, blocks the address alike for every account not known there, so the answer
 *   never tells which emails have an account.
 * - per account: `perAccount` failures (any addresses) within the window block the account, except from
 *   addresses it signed in from in the last 30 days: a distributed guesser slows down, but cannot lock the
 *   user out of the places they work from. Every block ends by itself.
 *
 * Behind a reverse proxy or a NAT every user shares one address; the known-address exemption is what keeps
 * them signing in while someone there guesses (the address is the proxy's unless TRUSTED_PROXIES names it).
 */
export type { SignInLimits };

export const KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600;

/** Built once by createServices; expired rows are swept by its rate-limit sweeper, not by these limiters. */
export function createSignInLimits(db: Db, c: AppContext['config']['signIn']): SignInLimits {
  const base = (keyPrefix: string, points: number, duration: number) =>
    new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix, points, duration, clearExpiredByTimeout: false });
  return {
    pairFailures: base('signin-pair', 1_000_000, 24 * 3600),
    pairBlock: base('signin-pair-block', 1, 1),
    account: base('signin-account', c.perAccount, c.windowSeconds),
    address: base('signin-address', c.perAddress, c.windowSeconds),
    unknownAccountAddress: base('signin-address-unknown', c.perAddress, c.windowSeconds),
    known: base('signin-known', 1, KNOWN_ADDRESS_SECONDS),
  };
}

export function signInLimits(app: Pick<AppContext, 'services'>): SignInLimits {
  return app.services.signInLimits;
}

/** The wait after the n-th consecutive failure of one account at one address (0 while under the limit). */
export function backoffSeconds(failures: number, c: AppContext['config']['signIn']): number {
  if (failures < c.perAccountAddress) return 0;
  const doublings = Math.min(failures - c.perAccountAddress, 30);
  return Math.min(c.blockBaseSeconds * 2 ** doublings, c.maxBlockSeconds);
}

export function pairKey(email: string, address: string): string {
  return `${email}|${address}`;
}

export function exhausted(res: RateLimiterRes | null): boolean {
  return res !== null && res.remainingPoints <= 0 && res.msBeforeNext > 0;
}

export function signInLimitedError(waitSeconds: number): ApiError {
  return apiError('too_many_requests', `too many failed sign-in attempts; retry after ${waitSeconds} s`, { 'retry-after': String(waitSeconds) });
}
