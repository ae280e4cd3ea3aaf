import type { AppContext } from '../context';
import { sendJob } from '../jobs/send-job';
import { currentRequestId } from '../observability/request-context';

/** pg-boss queue that triggers one delivery attempt (created at start, see webhooks/worker.ts); the outbox row, not the job, is the source of truth. */
export const WEBHOOK_QUEUE = 'webhook-deliver';

export interface WebhookJob {
  deliveryId: string;
  /** The request (or the job it started) that produced the event, for log correlation. */
  requestId?: string;
}

/** Wakes a worker for the delivery, now or at `at`. A lost or duplicate job is harmless (see deliver-webhook). */
export async function dispatchDelivery(app: AppContext, deliveryId: string, at?: Date): Promise<void> {
  await sendJob(app, WEBHOOK_QUEUE, { deliveryId, requestId: currentRequestId() } satisfies WebhookJob, at && at.getTime() > Date.now() ? { startAfter: at } : {});
}
