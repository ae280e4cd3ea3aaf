import { defineWorker } from '../jobs/define-worker';
import { deliverWebhook } from './deliver-webhook';
import { WEBHOOK_QUEUE, type WebhookJob } from './queues';
import { sweepDueDeliveries } from './sweep-deliveries';

const SWEEP_INTERVAL_MS = 30_000;
const SWEEP_GRACE_MS = 15_000;

/** Delivers webhooks from the outbox; the delivery row, not the job, is the source of truth (deliver-webhook). */
export const webhookWorker = defineWorker<WebhookJob>({
  queue: WEBHOOK_QUEUE,
  queueOptions: () => ({ retryLimit: 2, retryDelay: 5, expireInSeconds: 15 * 60 }),
  batchSize: 4,
  parallel: true,
  handle: async (app, job) => {
    await deliverWebhook(app, job.data.deliveryId);
  },
  // On start nothing is in flight in this process: everything due is sent now, however recently it fell due.
  onStart: (app) => sweepDueDeliveries(app, 0).then(
    () => {},
    (err: Error) => app.log.warn({ err: err.message }, 'webhook sweep failed'),
  ),
  sweep: { everyMs: () => SWEEP_INTERVAL_MS, run: (app) => sweepDueDeliveries(app, SWEEP_GRACE_MS).then(() => {}) },
});
