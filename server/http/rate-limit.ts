import { lt } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { apiError } from '@/lib/errors';
import type { AppContext, Sweeper } from '../context';
import type { Db } from '../db';
import type { Logger } from '../logger';
import { rateLimits } from '../db/schema';

/**
 * Register and login attempts per client address and route bucket, counted in the database (rate_limits),
 * so every web process of a deployment counts against the same limit: RATE_LIMIT_AUTH_PER_MINUTE per
 * address and bucket in each minute's window. Built once by createServices.
 */
export function createAuthRateLimiter(db: Db, perMinute: number): RateLimiterDrizzle {
  return new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix: 'auth',
    points: Math.max(1, perMinute),
    duration: 60,
    // createRateLimitSweeper clears expired rows for every limiter on the table.
    clearExpiredByTimeout: false,
  });
}

/** How often, and how long after expiry, rate_limits rows are deleted (as rate-limiter-flexible's own sweep did). */
const SWEEP_EVERY_MS = 5 * 60_000;
const EXPIRED_FOR_MS = 60 * 60_000;

/** Deletes rate_limits rows expired for an hour, every few minutes; stopped by closeSteps. */
export function createRateLimitSweeper(db: Db, log: Logger): Sweeper {
  const timer = setInterval(() => {
    db.delete(rateLimits)
      .where(lt(rateLimits.expire, new Date(Date.now() - EXPIRED_FOR_MS)))
      .then(
        () => {},
        (err: Error) => log.warn({ err: err.message }, 'rate limit sweep failed'),
      );
  }, SWEEP_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Counts one attempt. `clientAddress` is x-real-ip, which main.ts overwrites with the socket address (or,
 * behind a TRUSTED_PROXIES proxy, the client it forwarded for: server/http/client-address.ts), so a client
 * cannot pick its own bucket.
 */
export async function checkRateLimit(app: Pick<AppContext, 'config' | 'services'>, bucketName: string, clientAddress: string | null): Promise<void> {
  if (app.config.rateLimitAuthPerMinute <= 0) return;
  const client = clientAddress || 'local';
  try {
    await app.services.authRateLimiter.consume(`${bucketName}|${client}`);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retry = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw apiError('too_many_requests', `too many ${bucketName} requests; retry after ${retry} s`, { 'retry-after': String(retry) });
  }
}
