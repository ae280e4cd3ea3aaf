import type { JobWithMetadata } from 'pg-boss';
import type { AppContext } from '../../context';
import { SERVICES } from '../../services';
import { CKG_QUEUE, ensureCkgQueue, type CkgJob } from './ckg-queue';
import { failCkgTransaction } from './fail-ckg-transaction';
import { processCkgTransaction } from './process-ckg-transaction';
import { sweepCkgTransactions } from './sweep-ckg-transactions';
import { recordJob } from '../../observability/metrics';
import { runWithRequestId } from '../../observability/request-context';

const SWEEP_INTERVAL_MS = 60_000;
/** Longer than a job's whole retry ladder, so the sweeper only picks up transactions whose job is gone. */
const SWEEP_AGE_MS = 10 * 60_000;
const TIMER_KEY = 'ckg.sweep-timer';

SERVICES.push({ name: 'ckg:queue', start: (ctx) => ensureCkgQueue(ctx) });

SERVICES.push({
  name: 'worker:ckg',
  async start(ctx: AppContext) {
    await ensureCkgQueue(ctx);
    await ctx.boss.work<CkgJob>(CKG_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true }, async (jobs: JobWithMetadata<CkgJob>[]) => {
      for (const job of jobs) {
        await runWithRequestId(job.data.requestId, async () => {
          const started = performance.now();
          try {
            await processCkgTransaction(ctx, job.data.transactionId);
            recordJob(ctx, CKG_QUEUE, 'completed', (performance.now() - started) / 1000);
          } catch (err) {
            recordJob(ctx, CKG_QUEUE, job.retryCount >= job.retryLimit ? 'failed' : 'retry', (performance.now() - started) / 1000);
            ctx.log.warn({ transactionId: job.data.transactionId, retry: job.retryCount, err: (err as Error).message }, 'CKG processing failed');
            if (job.retryCount >= job.retryLimit) await failCkgTransaction(ctx, job.data.transactionId);
            else throw err;
          }
        });
      }
    });
    // At start nothing is in flight in this process; older unfinished transactions lost their job.
    await sweepCkgTransactions(ctx, 60_000).catch((err: Error) => ctx.log.warn({ err: err.message }, 'CKG sweep failed'));
    const timer = setInterval(() => {
      void sweepCkgTransactions(ctx, SWEEP_AGE_MS).catch((err: Error) => ctx.log.warn({ err: err.message }, 'CKG sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    ctx.services.set(TIMER_KEY, timer);
  },
  async stop(ctx: AppContext) {
    clearInterval(ctx.services.get(TIMER_KEY) as NodeJS.Timeout | undefined);
    ctx.services.delete(TIMER_KEY);
    await ctx.boss.offWork(CKG_QUEUE);
  },
});
