import { eq } from 'drizzle-orm';
import type { WebhookEventType, WebhookPayload } from '@/lib/contracts/webhooks';
import type { AppContext } from '../context';
import type { Db } from '../db/index';
import { partners, webhookDeliveries } from '../db/schema';
import { dispatchDelivery } from './queues';
import { systemDb } from '../db';

export interface EnqueueWebhookInput {
  partnerId: string;
  sessionId?: string | null;
  eventType: WebhookEventType;
  /** One delivery per key, ever: enqueueing the same event again returns the existing delivery. */
  eventKey: string;
  body: WebhookPayload;
  /** false: the caller makes the first attempt itself (the admin test webhook); the sweeper is the backstop. */
  dispatch?: boolean;
}

export interface EnqueuedWebhook {
  deliveryId: string;
  created: boolean;
}

/** A database handle or a transaction: the outbox row can be written in the caller's transaction. */
export type OutboxDb = Pick<Db, 'select' | 'insert'>;

/**
 * Writes the outbox row for one notification and wakes a worker. Returns null when the partner has no
 * webhook URL (nothing to deliver). The body is serialised once here so every attempt sends, and signs,
 * the same bytes.
 */
export async function enqueueWebhook(app: AppContext, input: EnqueueWebhookInput): Promise<EnqueuedWebhook | null> {
  const written = await writeWebhookRow(app, systemDb(app, "webhook outbox: the delivery's own partner, named by the event"), input);
  if (written?.created && input.dispatch !== false) await wakeWebhookWorker(app, written.deliveryId);
  return written;
}

/** The outbox row alone, in `db` (the caller's transaction); wakeWebhookWorker once it has committed. */
export async function writeWebhookRow(app: AppContext, db: OutboxDb, input: EnqueueWebhookInput): Promise<EnqueuedWebhook | null> {
  const partner = (await db.select({ webhookUrl: partners.webhookUrl }).from(partners).where(eq(partners.partnerId, input.partnerId)).limit(1))[0];
  if (!partner?.webhookUrl) {
    app.log.info({ partnerId: input.partnerId, eventKey: input.eventKey, eventType: input.eventType }, 'webhook not sent: partner has no webhook_url');
    return null;
  }
  const inserted = await db
    .insert(webhookDeliveries)
    .values({
      partnerId: input.partnerId,
      sessionId: input.sessionId ?? null,
      eventType: input.eventType,
      eventKey: input.eventKey,
      url: partner.webhookUrl,
      body: JSON.stringify(input.body),
      status: 'pending',
      nextAttemptAt: new Date(),
    })
    .onConflictDoNothing({ target: webhookDeliveries.eventKey })
    .returning({ id: webhookDeliveries.id });
  if (inserted[0]) {
    app.log.info({ deliveryId: inserted[0].id, partnerId: input.partnerId, eventType: input.eventType, eventKey: input.eventKey }, 'webhook enqueued');
    return { deliveryId: inserted[0].id, created: true };
  }
  const existing = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.eventKey, input.eventKey)).limit(1);
  return existing[0] ? { deliveryId: existing[0].id, created: false } : null;
}

/** Wakes a delivery worker for a committed outbox row; if the wake-up is lost the sweeper sends it, so this never fails the caller. */
export async function wakeWebhookWorker(app: AppContext, deliveryId: string): Promise<void> {
  await dispatchDelivery(app, deliveryId).catch((err: Error) => app.log.warn({ deliveryId, err: err.message }, 'webhook job not queued; the outbox sweeper will send it'));
}
