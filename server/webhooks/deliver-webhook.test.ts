import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { AppContext } from '../context';
import { openDatabase, type Database } from '../db/client';
import { partners, webhookAttempts, webhookDeliveries } from '../db/schema';
import { createLogger } from '../logger';
import { loadSecretBox } from '../auth/secret-box';
import { deliverWebhook } from './deliver-webhook';
import { startTestReceiver, type TestReceiver } from './testing/receiver';

/** The claim that makes delivery safe under duplicate jobs, against a real (PGlite) database. */
let dir: string;
let database: Database;
let app: AppContext;
let receiver: TestReceiver;

async function delivery(key: string, extra: Partial<typeof webhookDeliveries.$inferInsert> = {}): Promise<string> {
  const [row] = await app.db
    .insert(webhookDeliveries)
    .values({ partnerId: 'wh-unit', eventType: 'ckg', eventKey: key, url: receiver.url('/d'), body: `{"state":"COMPLETED","transaction_id":"${key}"}`, status: 'pending', nextAttemptAt: new Date(), ...extra })
    .returning({ id: webhookDeliveries.id });
  return row!.id;
}

beforeAll(async () => {
  receiver = await startTestReceiver();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wh-unit-'));
  database = await openDatabase({ dataDir: dir });
  const secrets = loadSecretBox(dir, 'unit-test-secret-key');
  app = {
    config: { ...loadConfig({ ...process.env, DATA_DIR: dir }), webhookAllowPrivate: true, webhookTimeoutMs: 3000, webhookRetrySchedule: [60] },
    log: createLogger('silent'),
    database,
    db: database.db,
    secrets,
    services: new Map(),
  } as unknown as AppContext;
  await app.db.insert(partners).values({ partnerId: 'wh-unit', name: 'unit', type: 'STANDARD', accessLevel: 'FULL', issuer: 'https://idp', webhookUrl: receiver.url('/d'), webhookSecretEnc: secrets.seal('whsec_unit') });
}, 120_000);

afterAll(async () => {
  await database?.close();
  await receiver?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('deliverWebhook', () => {
  it('sends once when several jobs for the same delivery run at the same time', async () => {
    const id = await delivery('concurrent');
    const outcomes = await Promise.all([deliverWebhook(app, id), deliverWebhook(app, id), deliverWebhook(app, id)]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['delivered', 'skipped', 'skipped']);
    expect(receiver.to('/d').filter((r) => r.headers['webhook-id'] === id)).toHaveLength(1);
    expect(await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id))).toHaveLength(1);
    // A late duplicate job finds it delivered.
    expect((await deliverWebhook(app, id)).outcome).toBe('skipped');
  });

  it('leaves a delivery that is not yet due, and one whose claim is still held, alone', async () => {
    const later = await delivery('later', { nextAttemptAt: new Date(Date.now() + 60_000) });
    expect((await deliverWebhook(app, later)).outcome).toBe('skipped');
    const held = await delivery('held', { status: 'delivering', leaseUntil: new Date(Date.now() + 60_000), attempts: 1 });
    expect((await deliverWebhook(app, held)).outcome).toBe('skipped');
    expect(receiver.to('/d').filter((r) => [later, held].includes(r.headers['webhook-id'] as string))).toHaveLength(0);
  });

  it('schedules a retry with jitter after a retryable failure and gives up when the schedule is spent', async () => {
    receiver.on('/flaky', () => ({ status: 502 }));
    const id = await delivery('flaky', { url: receiver.url('/flaky') });
    await app.db.update(partners).set({ webhookUrl: receiver.url('/flaky') }).where(eq(partners.partnerId, 'wh-unit'));
    try {
      // No job queue in this test: the retry wake-up is expected to fail and be left to the sweeper.
      const first = await deliverWebhook(app, id);
      expect(first).toMatchObject({ outcome: 'retry', attempt: 1, responseCode: 502 });
      const delay = first.nextAttemptAt!.getTime() - Date.now();
      expect(delay).toBeGreaterThan(47_000);
      expect(delay).toBeLessThanOrEqual(72_000);
      const second = await deliverWebhook(app, id, { ignoreSchedule: true });
      expect(second).toMatchObject({ outcome: 'failed', attempt: 2, responseCode: 502, error: 'HTTP 502; gave up after 2 attempts' });
      const row = (await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
      expect(row).toMatchObject({ status: 'failed', attempts: 2, lastResponseCode: 502, nextAttemptAt: null, leaseUntil: null });
    } finally {
      await app.db.update(partners).set({ webhookUrl: receiver.url('/d') }).where(eq(partners.partnerId, 'wh-unit'));
    }
  });
});
