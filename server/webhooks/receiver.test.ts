import { describe, expect, it } from 'vitest';
import { receiveNotification } from './receiver';
import { signWebhook } from './sign';

const secret = 'whsec_receiver';
const now = 1_760_000_000_000;

function signed(payload: unknown, opts: { at?: number; raw?: string } = {}) {
  const rawBody = Buffer.from(opts.raw ?? JSON.stringify(payload));
  const generatedAt = String(opts.at ?? now);
  return { secret, generatedAt, signature: signWebhook(secret, generatedAt, rawBody), rawBody, now };
}

describe('reference receiver rules', () => {
  it('accepts SUCCESS, FAILURE and every CKG state with 200 and a message', () => {
    for (const p of [
      { status: 'SUCCESS', session_id: 's1' },
      { status: 'FAILURE', session_id: 's1', error_code: 'X', error_detail: '' },
      { state: 'COMPLETED', transaction_id: 't1' },
      { state: 'FAILED', transaction_id: 't1', error: { code: 'a', message: 'b' } },
      { state: 'ABORTED', transaction_id: 't1' },
    ]) {
      const r = receiveNotification(signed(p));
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ message: 'notification accepted' });
    }
    expect(receiveNotification(signed({ state: 'COMPLETED', transaction_id: 't9' })).accepted).toEqual({ kind: 'ckg', id: 't9', value: 'COMPLETED' });
  });

  it('answers 401 for a wrong, missing or malformed signature before looking at the body', () => {
    const good = signed({ status: 'SUCCESS' });
    expect(receiveNotification({ ...good, signature: good.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) })).toMatchObject({ status: 401, body: { code: 401 } });
    expect(receiveNotification({ ...good, signature: null }).body.message).toMatch(/X-API-Key header is missing/);
    expect(receiveNotification({ ...good, generatedAt: null }).body.message).toMatch(/generated-at header is missing/);
    expect(receiveNotification({ ...good, generatedAt: 'yesterday' }).status).toBe(401);
    expect(receiveNotification({ ...good, secret: 'another' }).status).toBe(401);
    // A tampered body with the original signature.
    expect(receiveNotification({ ...good, rawBody: Buffer.from('{"status":"FAILURE"}') }).status).toBe(401);
    const malformedUnsigned = { ...signed(null, { raw: '{nope' }), signature: 'deadbeef' };
    expect(receiveNotification(malformedUnsigned).status).toBe(401);
  });

  it('answers 401 for a generated-at more than five minutes from its clock, either way', () => {
    expect(receiveNotification(signed({ status: 'SUCCESS' }, { at: now - 5 * 60_000 - 1 })).body.message).toMatch(/more than 5 minutes/);
    expect(receiveNotification(signed({ status: 'SUCCESS' }, { at: now + 5 * 60_000 + 1 })).status).toBe(401);
    expect(receiveNotification(signed({ status: 'SUCCESS' }, { at: now - 4 * 60_000 })).status).toBe(200);
  });

  it('answers 400 for malformed JSON, non-objects and unknown status or state', () => {
    expect(receiveNotification(signed(null, { raw: '{"status":' }))).toMatchObject({ status: 400, body: { code: 400, message: 'invalid request: body is not valid JSON' } });
    expect(receiveNotification(signed([1, 2])).body.message).toMatch(/must be a JSON object/);
    expect(receiveNotification(signed({ status: 'TEST' })).body.message).toMatch(/unknown status "TEST"/);
    expect(receiveNotification(signed({ state: 'DONE' })).body.message).toMatch(/unknown state "DONE"/);
    expect(receiveNotification(signed({ hello: 'world' })).body.message).toMatch(/neither status nor state/);
    expect(receiveNotification(signed({ status: 'success' })).status).toBe(400);
  });

  it('answers 503 when no receiver secret is configured', () => {
    expect(receiveNotification({ ...signed({ status: 'SUCCESS' }), secret: undefined })).toMatchObject({
      status: 503,
      body: { code: 503, message: expect.stringMatching(/WEBHOOK_RECEIVER_SECRET/) },
    });
  });
});
