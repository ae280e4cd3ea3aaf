import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '@/lib/errors';
import type { AppContext } from '../context';
import { rateLimits } from '../db/schema';

/**
 * Register and login attempts per client address and route bucket, counted in the database (rate_limits),
 * so every web process of a deployment counts against the same limit: RATE_LIMIT_AUTH_PER_MINUTE per
 * address and bucket in each minute's window. `clientAddress` is x-real-ip, which main.ts overwrites with the
 * socket address (or, behind a TRUSTED_PROXIES proxy, the client it forwarded for: server/http/client-address.ts),
 * so a client cannot pick its own bucket.
 */
export async function checkRateLimit(app: AppContext, bucketName: string, clientAddress: string | null): Promise<void> {
  const perMinute = app.config.rateLimitAuthPerMinute;
  if (perMinute <= 0) return;
  app.services.authRateLimiter ??= new RateLimiterDrizzle({
    storeClient: app.db,
    schema: rateLimits,
    keyPrefix: 'auth',
    points: perMinute,
    duration: 60,
    // The sign-in limiter's sweeper clears the table, if that limiter is built; this one must not rely on it.
    clearExpiredByTimeout: true,
  });
  const client = clientAddress || 'local';
  try {
    await app.services.authRateLimiter.consume(`${bucketName}|${client}`);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retry = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError(429, `too many ${bucketName} requests; retry after ${retry} s`, { 'retry-after': String(retry) });
  }
}
