import { ApiError } from '@/lib/errors';
import type { AppContext } from '../context';

interface Bucket {
  tokens: number;
  updated: number;
}

/**
 * A token bucket per client address and route bucket. It is per process: enough to blunt credential
 * stuffing on login and register without another moving part.
 */
export function checkRateLimit(app: AppContext, bucketName: string, req: Request): void {
  const perMinute = app.config.rateLimitAuthPerMinute;
  if (perMinute <= 0) return;
  let buckets = app.services.get('rate-limit.buckets') as Map<string, Bucket> | undefined;
  if (!buckets) {
    buckets = new Map();
    app.services.set('rate-limit.buckets', buckets);
  }
  // main.ts overwrites x-real-ip with the socket address, so a client cannot pick its own bucket.
  const client = req.headers.get('x-real-ip') || 'local';
  const key = `${bucketName}|${client}`;
  const now = Date.now();
  const bucket = buckets.get(key) ?? { tokens: perMinute, updated: now };
  bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.updated) / 60_000) * perMinute);
  bucket.updated = now;
  if (bucket.tokens < 1) {
    buckets.set(key, bucket);
    const retry = Math.ceil(((1 - bucket.tokens) / perMinute) * 60);
    throw new ApiError(429, `too many ${bucketName} requests; retry after ${retry} s`, { 'retry-after': String(retry) });
  }
  bucket.tokens -= 1;
  if (buckets.size > 50_000) buckets.clear();
  buckets.set(key, bucket);
}
