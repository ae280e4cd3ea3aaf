import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from './sign';

describe('webhook signature', () => {
  const secret = 'whsec_test_secret';
  const body = '{"status":"SUCCESS","session_id":"a"}';

  it('is the lowercase hex HMAC-SHA256 of "<generated-at>:<raw body>"', () => {
    const expected = crypto.createHmac('sha256', secret).update(`1700000000000:${body}`).digest('hex');
    const sig = signWebhook(secret, '1700000000000', body);
    expect(sig).toBe(expected);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs the exact bytes: a re-serialised body with other whitespace does not verify', () => {
    const sig = signWebhook(secret, '1', body);
    expect(verifyWebhookSignature(secret, '1', body, sig)).toBe(true);
    expect(verifyWebhookSignature(secret, '1', JSON.stringify(JSON.parse(body), null, 1), sig)).toBe(false);
  });

  it('rejects another timestamp, another secret, a truncated or missing signature', () => {
    const sig = signWebhook(secret, '1000', body);
    expect(verifyWebhookSignature(secret, '1001', body, sig)).toBe(false);
    expect(verifyWebhookSignature('other', '1000', body, sig)).toBe(false);
    expect(verifyWebhookSignature(secret, '1000', body, sig.slice(0, 63))).toBe(false);
    expect(verifyWebhookSignature(secret, '1000', body, '')).toBe(false);
    expect(verifyWebhookSignature(secret, '1000', body, null)).toBe(false);
  });

  it('accepts an upper-case hex rendering of the same MAC', () => {
    const sig = signWebhook(secret, '5', body);
    expect(verifyWebhookSignature(secret, '5', Buffer.from(body), sig.toUpperCase())).toBe(true);
  });
});
