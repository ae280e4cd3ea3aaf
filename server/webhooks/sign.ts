import crypto from 'node:crypto';

/** The spec's webhook signature: lowercase hex HMAC-SHA256 of `<generated-at>:<raw body>` keyed with the partner secret. */
export function signWebhook(secret: string, generatedAt: string, rawBody: string | Buffer): string {
  const mac = crypto.createHmac('sha256', secret);
  mac.update(`${generatedAt}:`);
  mac.update(rawBody);
  return mac.digest('hex');
}

/** Constant-time check of a received X-API-Key; a value of the wrong length or alphabet is simply unequal. */
export function verifyWebhookSignature(secret: string, generatedAt: string, rawBody: string | Buffer, given: string | null | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(signWebhook(secret, generatedAt, rawBody), 'utf8');
  const actual = Buffer.from(given.trim().toLowerCase(), 'utf8');
  if (actual.length !== expected.length) return false;
  return crypto.timingSafeEqual(actual, expected);
}
