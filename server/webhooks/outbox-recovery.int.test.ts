import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startServer, type TestServer } from '../test/harness';
import { createTestPartner, type TestPartner } from '../test/partners';
import { webhookDeliveries } from '../db/schema';
import { signWebhook } from './sign';
import { startTestReceiver, type TestReceiver } from './testing/receiver';
import { testApi } from '../test/api-client';
import { getDelivery } from '@/lib/contracts/routes/webhooks';

/**
 * The outbox row, not the queue job, is the source of truth: deliveries whose job never existed (a crash
 * between the insert and the queueing) or whose attempt died with its worker (a lapsed claim) are sent
 * when a worker starts.
 */
describe('webhook outbox recovery after a crash', () => {
  let server: TestServer;
  let receiver: TestReceiver;
  let partner: TestPartner;
  const path = '/recovered';
  const ids: { orphan?: string; interrupted?: string } = {};

  beforeAll(async () => {
    receiver = await startTestReceiver();
    server = await startServer({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
    partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(path) });
    await server.kill();

    // Written straight into the database, with no queue job, as a crash would leave them.
    const database = await openTestDatabase(server.dataDir);
    const past = new Date(Date.now() - 60_000);
    const [orphan] = await database.db
      .insert(webhookDeliveries)
      .values({ partnerId: partner.partnerId, eventType: 'ckg', eventKey: 'ckg:orphan', url: receiver.url(path), body: '{"state":"COMPLETED","transaction_id":"orphan"}', status: 'pending', nextAttemptAt: past })
      .returning({ id: webhookDeliveries.id });
    const [interrupted] = await database.db
      .insert(webhookDeliveries)
      .values({
        partnerId: partner.partnerId,
        eventType: 'ckg',
        eventKey: 'ckg:interrupted',
        url: receiver.url(path),
        body: '{"state":"FAILED","transaction_id":"interrupted"}',
        status: 'delivering',
        attempts: 1,
        leaseUntil: past,
        lastAttemptAt: past,
      })
      .returning({ id: webhookDeliveries.id });
    await database.close();
    ids.orphan = orphan!.id;
    ids.interrupted = interrupted!.id;

    server = await startServer({ dataDir: server.dataDir, env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it('sends a due delivery that had no job, and re-attempts one whose worker died mid-attempt', async () => {
    const reqs = await receiver.waitFor(path, 2);
    const byId = new Map(reqs.map((r) => [r.headers['webhook-id'] as string, r]));
    const orphan = byId.get(ids.orphan!)!;
    const interrupted = byId.get(ids.interrupted!)!;
    expect(orphan.rawBody).toBe('{"state":"COMPLETED","transaction_id":"orphan"}');
    expect(orphan.headers['webhook-attempt']).toBe('1');
    // The interrupted attempt may have reached the receiver before the crash, so this one is attempt 2.
    expect(interrupted.headers['webhook-attempt']).toBe('2');
    for (const r of [orphan, interrupted]) expect(r.headers['x-api-key']).toBe(signWebhook(partner.webhookSecret, r.headers['generated-at'] as string, r.rawBody));

    const deadline = Date.now() + 30_000;
    for (const id of [ids.orphan!, ids.interrupted!]) {
      for (;;) {
        const d = (await (await testApi(server.baseUrl, 'admin').send(getDelivery, { params: { id } })).json()) as { status: string; attempts_log: unknown[] };
        if (d.status === 'delivered') {
          expect(d.attempts_log).toHaveLength(1);
          break;
        }
        if (Date.now() > deadline) throw new Error(`delivery ${id} is ${d.status}`);
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  });
});
