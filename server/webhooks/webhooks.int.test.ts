import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, type TestPartner } from '../test/partners';
import { signWebhook } from './sign';
import { startTestReceiver, type ReceivedRequest, type TestReceiver } from './testing/receiver';
import { testApi, type CallArgs } from '../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { getDelivery, listDeliveries, redeliverWebhook, sendTestWebhook } from '@/lib/contracts/routes/webhooks';
import { createApiKey } from '@/lib/contracts/routes/admin-api-keys';
import { listAudit } from '@/lib/contracts/routes/admin-audit';
import { receiveNotification } from '@/lib/contracts/routes/webhook-receiver';
import { createPartner, updatePartner } from '@/lib/contracts/routes/admin-partners';

const RECEIVER_SECRET = 'reference-receiver-secret';

async function admin<C extends RouteContract>(server: TestServer, contract: C, ...input: CallArgs<C>) {
  const r = await testApi(server, 'admin').call(contract, ...input);
  return { status: r.status, body: r.body };
}

/** Polls the admin API (bounded) until the delivery satisfies `done`. */
async function deliveryWhen(server: TestServer, id: string, done: (d: any) => boolean, limitMs = 45_000): Promise<any> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const d = await admin(server, getDelivery, { params: { id } });
    if (done(d.body)) return d.body;
    if (Date.now() > deadline) throw new Error(`delivery ${id} never reached the expected state: ${JSON.stringify(d.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

function expectSigned(req: ReceivedRequest, secret: string) {
  const generatedAt = req.headers['generated-at'] as string;
  expect(generatedAt).toMatch(/^\d{13}$/);
  expect(req.headers['x-api-key']).toBe(signWebhook(secret, generatedAt, req.rawBody));
  expect(req.headers['content-type']).toBe('application/json');
  expect(req.headers['user-agent']).toMatch(/^ambient-docs-webhooks\//);
}

describe('webhook delivery against the real server', () => {
  let server: TestServer;
  let receiver: TestReceiver;

  beforeAll(async () => {
    receiver = await startTestReceiver();
    server = await startServer({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_RECEIVER_SECRET: RECEIVER_SECRET } });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it('retries 503 twice and delivers on attempt 3 with the same webhook-id, each attempt signed and logged', async () => {
    const path = '/flaky';
    receiver.on(path, (n) => (n <= 2 ? { status: 503, body: '{"message":"busy"}' } : { status: 200, body: '{"message":"notification accepted"}' }));
    const partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(path) });

    const test = await admin(server, sendTestWebhook, { params: { partner_id: partner.partnerId } });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ delivered: false, response_code: 503, error: 'HTTP 503: {"message":"busy"}' });
    expect(test.body.delivery).toMatchObject({ partner_id: partner.partnerId, event_type: 'test', status: 'pending', attempts: 1, last_response_code: 503 });
    expect(test.body.delivery.next_attempt_at).not.toBeNull();
    const id = test.body.delivery.id as string;

    const reqs = await receiver.waitFor(path, 3);
    const final = await deliveryWhen(server, id, (d) => d.status === 'delivered');
    expect(reqs.map((r) => r.headers['webhook-id'])).toEqual([id, id, id]);
    expect(reqs.map((r) => r.headers['webhook-attempt'])).toEqual(['1', '2', '3']);
    for (const r of reqs) expectSigned(r, partner.webhookSecret);
    // Same bytes every time, even though generated-at (and so the signature) is fresh per attempt.
    expect(new Set(reqs.map((r) => r.rawBody)).size).toBe(1);

    const payload = JSON.parse(reqs[0]!.rawBody);
    expect(payload).toMatchObject({ status: 'SUCCESS', additional_info: { test: true } });
    expect(payload.sessions).toEqual([payload.session_id]);
    // not a request: the link the payload carries
    expect(payload._links.status[0]).toEqual({ method: 'GET', href: `${server.baseUrl}/api/v1/ambient/session/${payload.session_id}/status`, name: 'session_status' });

    expect(final).toMatchObject({ status: 'delivered', attempts: 3, last_response_code: 200, last_error: null, next_attempt_at: null });
    expect(final.delivered_at).not.toBeNull();
    expect(final.body).toBe(reqs[0]!.rawBody);
    expect(final.payload).toEqual(payload);
    expect(final.attempts_log.map((a: any) => [a.attempt, a.response_code])).toEqual([
      [1, 503],
      [2, 503],
      [3, 200],
    ]);
    expect(final.attempts_log[2].request_headers).toMatchObject({ 'webhook-id': id, 'webhook-attempt': '3', 'X-API-Key': reqs[2]!.headers['x-api-key'] });
    expect(final.attempts_log[0].url).toBe(receiver.url(path));

    // Redelivery: a new attempt sequence now, same webhook-id, attempt numbering continues.
    const re = await admin(server, redeliverWebhook, { params: { id } });
    expect(re.status).toBe(200);
    expect(re.body).toMatchObject({ id, status: 'pending', delivered_at: null });
    const after = await receiver.waitFor(path, 4);
    expect(after[3]!.headers['webhook-id']).toBe(id);
    expect(after[3]!.headers['webhook-attempt']).toBe('4');
    expectSigned(after[3]!, partner.webhookSecret);
    expect(after[3]!.rawBody).toBe(reqs[0]!.rawBody);
    const redelivered = await deliveryWhen(server, id, (d) => d.status === 'delivered');
    expect(redelivered.attempts).toBe(4);
  });

  it('does not retry a 400 and marks the delivery failed at once', async () => {
    const path = '/rejects';
    receiver.on(path, () => ({ status: 400, body: '{"code":400,"message":"unknown status"}' }));
    const partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(path) });
    const test = await admin(server, sendTestWebhook, { params: { partner_id: partner.partnerId } });
    expect(test.body).toMatchObject({ delivered: false, response_code: 400, error: 'HTTP 400: {"code":400,"message":"unknown status"}' });
    expect(test.body.delivery).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });

    // A later delivery to another partner going through its whole ladder shows the worker was running meanwhile.
    const other = '/slow-ok';
    receiver.on(other, (n) => (n === 1 ? { status: 500 } : { status: 204 }));
    const p2 = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(other) });
    const t2 = await admin(server, sendTestWebhook, { params: { partner_id: p2.partnerId } });
    await deliveryWhen(server, t2.body.delivery.id, (d) => d.status === 'delivered');
    expect(receiver.to(path)).toHaveLength(1);
    const d = await admin(server, getDelivery, { params: { id: test.body.delivery.id } });
    expect(d.body).toMatchObject({ status: 'failed', attempts: 1, last_response_code: 400 });
  });

  it('does not follow a redirect', async () => {
    const path = '/moved';
    receiver.on(path, () => ({ status: 301, headers: { location: receiver.url('/moved-here') } }));
    const partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(path) });
    const test = await admin(server, sendTestWebhook, { params: { partner_id: partner.partnerId } });
    expect(test.body.delivered).toBe(false);
    expect(test.body.response_code).toBe(301);
    expect(test.body.error).toBe(`HTTP 301: redirect to ${receiver.url('/moved-here')} not followed; update the webhook URL`);
    expect(test.body.delivery.status).toBe('failed');
    expect(receiver.to('/moved-here')).toHaveLength(0);
  });

  it('lists deliveries with filters and cursor pagination; unknown ids 404, bad ids 400', async () => {
    const path = '/listing';
    const partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(path) });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await admin(server, sendTestWebhook, { params: { partner_id: partner.partnerId } })).body.delivery.id);

    const page1 = await admin(server, listDeliveries, { query: { partner_id: partner.partnerId, limit: '2' } });
    expect(page1.status).toBe(200);
    expect(page1.body.deliveries.map((d: any) => d.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await admin(server, listDeliveries, { query: { partner_id: partner.partnerId, limit: '2', cursor: page1.body.next_cursor } });
    expect(page2.body.deliveries.map((d: any) => d.id)).toEqual([ids[0]]);
    expect(page2.body.next_cursor).toBeNull();
    for (const d of [...page1.body.deliveries, ...page2.body.deliveries]) {
      expect(d).toMatchObject({ partner_id: partner.partnerId, status: 'delivered', attempts: 1, last_response_code: 200 });
      expect(d.last_attempt_at).not.toBeNull();
    }
    expect((await admin(server, listDeliveries, { query: { partner_id: partner.partnerId, status: 'failed' } })).body.deliveries).toEqual([]);

    expect(await admin(server, listDeliveries, { query: { status: 'nope' } })).toMatchObject({ status: 400, body: { code: 400, message: expect.stringMatching(/status/) } });
    expect(await admin(server, listDeliveries, { query: { limit: '0' } })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/limit/) } });
    expect(await admin(server, listDeliveries, { query: { cursor: 'garbage' } })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/cursor/) } });
    expect((await admin(server, getDelivery, { params: { id: crypto.randomUUID() } })).status).toBe(404);
    expect((await admin(server, redeliverWebhook, { params: { id: crypto.randomUUID() } })).status).toBe(404);
    expect(await admin(server, getDelivery, { params: { id: 'not-a-uuid' } })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/id/) } });
    const noAuth = await testApi(server.baseUrl).send(listDeliveries);
    expect(noAuth.status).toBe(401);
  });

  it('test-webhook: 400 for a partner without a URL, 404 for an unknown partner', async () => {
    const partner = await createTestPartner(server.baseUrl);
    expect(await admin(server, sendTestWebhook, { params: { partner_id: partner.partnerId } })).toMatchObject({
      status: 400,
      body: { code: 400, message: expect.stringMatching(/^webhook_url: /) },
    });
    expect((await admin(server, sendTestWebhook, { params: { partner_id: 'no-such-partner' } })).status).toBe(404);
  });

  it("scopes the delivery API to a partner admin's own partner and records admin actions in the audit log", async () => {
    const mine = await createTestPartner(server.baseUrl, { webhook_url: receiver.url('/scoped-a') });
    const theirs = await createTestPartner(server.baseUrl, { webhook_url: receiver.url('/scoped-b') });
    const myDelivery = (await admin(server, sendTestWebhook, { params: { partner_id: mine.partnerId } })).body.delivery.id as string;
    const theirDelivery = (await admin(server, sendTestWebhook, { params: { partner_id: theirs.partnerId } })).body.delivery.id as string;
    const created = await admin(server, createApiKey, { body: { name: 'partner-a admin', partner_id: mine.partnerId } });
    expect(created.status).toBe(201);
    const as = <C extends RouteContract>(contract: C, ...input: CallArgs<C>) =>
      testApi(server, { authorization: `Bearer ${created.body.key}`, 'content-type': 'application/json' }).send(contract, ...input);

    const list = (await (await as(listDeliveries, { query: { limit: '200' } })).json()) as { deliveries: Array<{ id: string; partner_id: string }> };
    expect(list.deliveries.map((d) => d.id)).toContain(myDelivery);
    expect(new Set(list.deliveries.map((d) => d.partner_id))).toEqual(new Set([mine.partnerId]));
    const filtered = (await (await as(listDeliveries, { query: { partner_id: theirs.partnerId } })).json()) as { deliveries: unknown[] };
    expect(filtered.deliveries).toEqual([]);
    expect((await as(getDelivery, { params: { id: theirDelivery } })).status).toBe(404);
    expect((await as(redeliverWebhook, { params: { id: theirDelivery } })).status).toBe(404);
    expect((await as(sendTestWebhook, { params: { partner_id: theirs.partnerId } })).status).toBe(404);
    expect((await as(getDelivery, { params: { id: myDelivery } })).status).toBe(200);
    expect((await as(redeliverWebhook, { params: { id: myDelivery } })).status).toBe(200);

    const audit = await admin(server, listAudit, { query: { partner_id: mine.partnerId } });
    expect(audit.status).toBe(200);
    const entries = audit.body.entries as Array<{ action: string; target_id: string | null; actor: string }>;
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'webhook_delivery.redeliver', target_id: myDelivery, actor: 'api-key:partner-a admin' }),
        expect.objectContaining({ action: 'partner.test_webhook', target_id: myDelivery, actor: 'api-key:ADMIN_API_KEY' }),
      ]),
    );
  });

  describe('reference receiver POST /webhooks/notification', () => {
    const post = (body: string, headers: Record<string, string>) =>
      testApi(server.baseUrl, { 'content-type': 'application/json', ...headers }).send(receiveNotification, { rawBody: body });
    const signedHeaders = (body: string, at = Date.now()) => ({ 'generated-at': String(at), 'X-API-Key': signWebhook(RECEIVER_SECRET, String(at), body) });

    it('accepts a correctly signed SUCCESS, FAILURE and CKG notification', async () => {
      for (const p of [{ status: 'SUCCESS', session_id: crypto.randomUUID() }, { status: 'FAILURE', error_code: 'X' }, { state: 'ABORTED', transaction_id: 't' }]) {
        const body = JSON.stringify(p);
        const res = await post(body, signedHeaders(body));
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ message: 'notification accepted' });
      }
    });

    it('answers 401 to a bad, missing or stale signature', async () => {
      const body = JSON.stringify({ status: 'SUCCESS' });
      const bad = await post(body, { ...signedHeaders(body), 'X-API-Key': 'f'.repeat(64) });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toEqual({ code: 401, message: 'invalid signature: X-API-Key does not match the HMAC-SHA256 of generated-at:body' });
      expect((await post(body, {})).status).toBe(401);
      const stale = await post(body, signedHeaders(body, Date.now() - 10 * 60_000));
      expect(stale.status).toBe(401);
      expect((await stale.json()).message).toMatch(/5 minutes/);
    });

    it('answers 400 to malformed JSON and to an unknown status or state', async () => {
      const malformed = '{"status": SUCCESS';
      const r1 = await post(malformed, signedHeaders(malformed));
      expect(r1.status).toBe(400);
      expect(await r1.json()).toEqual({ code: 400, message: 'invalid request: body is not valid JSON' });
      for (const p of [{ status: 'TEST' }, { state: 'RUNNING' }, { foo: 1 }]) {
        const body = JSON.stringify(p);
        const r = await post(body, signedHeaders(body));
        expect(r.status).toBe(400);
        expect((await r.json()).code).toBe(400);
      }
    });
  });

  describe('with private addresses refused (WEBHOOK_ALLOW_PRIVATE=false)', () => {
    let partner: TestPartner;
    const path = '/must-not-be-reached';

    beforeAll(async () => {
      partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(path) });
      // Same database, restarted with the production default: the URL was configured when it was allowed.
      await server.stop();
      server = await startServer({ dataDir: server.dataDir, env: { WEBHOOK_ALLOW_PRIVATE: 'false', WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
    });

    it('refuses to deliver to a loopback URL: delivery failed with a clear error, nothing reaches the receiver', async () => {
      const test = await admin(server, sendTestWebhook, { params: { partner_id: partner.partnerId } });
      expect(test.status).toBe(200);
      expect(test.body).toMatchObject({ delivered: false, response_code: null });
      expect(test.body.error).toBe('refused: webhook host 127.0.0.1 resolves to 127.0.0.1, a loopback address; only public addresses are contacted unless WEBHOOK_ALLOW_PRIVATE=true');
      expect(test.body.delivery).toMatchObject({ status: 'failed', attempts: 1 });
      const detail = await admin(server, getDelivery, { params: { id: test.body.delivery.id } });
      expect(detail.body.attempts_log).toHaveLength(1);
      expect(detail.body.attempts_log[0]).toMatchObject({ response_code: null, error: expect.stringMatching(/^refused: /) });
      expect(receiver.to(path)).toHaveLength(0);
    });

    it('refuses loopback and metadata webhook URLs on partner create and update, naming webhook_url', async () => {
      const create = await testApi(server.baseUrl, 'admin').send(createPartner, { body: { name: 'x', type: 'STANDARD', issuer: 'https://idp.example', jwks_uri: 'https://idp.example/jwks', webhook_url: 'http://localhost:8080/hook' } });
      expect(create.status).toBe(400);
      expect((await create.json()).message).toBe('webhook_url: host localhost is a loopback name; set WEBHOOK_ALLOW_PRIVATE=true to allow it');
      const update = await admin(server, updatePartner, { params: { partner_id: partner.partnerId }, body: { webhook_url: 'http://169.254.169.254/latest/meta-data' } });
      expect(update).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^webhook_url: host 169\.254\.169\.254 is a link-local/) } });
      const ok = await admin(server, updatePartner, { params: { partner_id: partner.partnerId }, body: { webhook_url: 'https://hooks.partner.example/notify' } });
      expect(ok).toMatchObject({ status: 200, body: { webhook_url: 'https://hooks.partner.example/notify' } });
    });

    it('answers 503 from the reference receiver when no secret is configured', async () => {
      const res = await testApi(server.baseUrl).send(receiveNotification, { body: {} });
      expect(res.status).toBe(503);
      expect((await res.json()).message).toMatch(/WEBHOOK_RECEIVER_SECRET/);
    });
  });
});
