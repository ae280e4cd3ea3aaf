import type { Job } from 'pg-boss';
import type { AppContext } from '../context';
import { SERVICES } from '../services';
import { deliverWebhook } from './deliver-webhook';
import { ensureWebhookQueue, WEBHOOK_QUEUE, type WebhookJob } from './queues';
import { sweepDueDeliveries } from './sweep-deliveries';
import { recordJob } from '../observability/metrics';
import { runWithRequestId } from '../observability/request-context';

const SWEEP_INTERVAL_MS = 30_000;
const SWEEP_GRACE_MS = 15_000;
const TIMER_KEY = 'webhooks.sweep-timer';

// Every process that enqueues (web-only ones too) needs the queue to exist.
SERVICES.push({ name: 'webhooks:queue', start: (ctx) => ensureWebhookQueue(ctx) });

SERVICES.push({
  name: 'worker:webhooks',
  async start(ctx: AppContext) {
    await ensureWebhookQueue(ctx);
    await ctx.boss.work<WebhookJob>(WEBHOOK_QUEUE, { batchSize: 4, pollingIntervalSeconds: 1 }, async (jobs: Job<WebhookJob>[]) => {
      await Promise.all(
        jobs.map((job) => runWithRequestId(job.data.requestId, async () => {
          const started = performance.now();
          try {
            await deliverWebhook(ctx, job.data.deliveryId);
            recordJob(ctx, WEBHOOK_QUEUE, 'completed', (performance.now() - started) / 1000);
          } catch (err) {
            recordJob(ctx, WEBHOOK_QUEUE, 'retry', (performance.now() - started) / 1000);
            throw err;
          }
        })),
      );
    });
    // On start nothing is in flight in this process: everything due is sent now, however recently it fell due.
    await sweepDueDeliveries(ctx, 0).catch((err: Error) => ctx.log.warn({ err: err.message }, 'webhook sweep failed'));
    const timer = setInterval(() => {
      void sweepDueDeliveries(ctx, SWEEP_GRACE_MS).catch((err: Error) => ctx.log.warn({ err: err.message }, 'webhook sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    ctx.services.set(TIMER_KEY, timer);
  },
  async stop(ctx: AppContext) {
    clearInterval(ctx.services.get(TIMER_KEY) as NodeJS.Timeout | undefined);
    ctx.services.delete(TIMER_KEY);
    await ctx.boss.offWork(WEBHOOK_QUEUE);
  },
});
