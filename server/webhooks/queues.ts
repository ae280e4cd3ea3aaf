import type { AppContext } from '../context';
import { currentRequestId } from '../observability/request-context';

/** pg-boss queue that triggers one delivery attempt; the outbox row, not the job, is the source of truth. */
export const WEBHOOK_QUEUE = 'webhook-deliver';

export interface WebhookJob {
  deliveryId: string;
  /** The request (or the job it started) that produced the event, for log correlation. */
  requestId?: string;
}

/** pg-boss 10 refuses sends to a queue that was never created; every process that enqueues needs it. */
export function ensureWebhookQueue(app: AppContext): Promise<void> {
  const key = 'webhooks.queue-ready';
  let ready = app.services.get(key) as Promise<void> | undefined;
  if (!ready) {
    ready = app.boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, retryLimit: 2, retryDelay: 5, expireInSeconds: 15 * 60 });
    ready.catch(() => app.services.delete(key));
    app.services.set(key, ready);
  }
  return ready;
}

/** Wakes a worker for the delivery, now or at `at`. A lost or duplicate job is harmless (see deliver-webhook). */
export async function dispatchDelivery(app: AppContext, deliveryId: string, at?: Date): Promise<void> {
  await ensureWebhookQueue(app);
  await app.boss.send(WEBHOOK_QUEUE, { deliveryId, requestId: currentRequestId() } satisfies WebhookJob, at && at.getTime() > Date.now() ? { startAfter: at } : {});
}
