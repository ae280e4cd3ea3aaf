import type PgBoss from 'pg-boss';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { recordJob } from '../observability/metrics';
import { runWithRequestId } from '../observability/request-context';
import { addWorkerLoop, removeWorkerLoops, wakeWorkers } from './wake-workers';

/** What a job carries: ids only (they are logged with its failures), and the request that queued it. */
export interface JobData {
  requestId?: string;
}

export interface WorkerDefinition<T extends JobData> {
  queue: string;
  /** How the queue is created (retries, expiry, policy); every process creates it at start so any can enqueue. */
  queueOptions(config: Config): Omit<PgBoss.Queue, 'name'>;
  /** Jobs fetched per poll. */
  batchSize: number;
  /** Fetch loops this process runs, each with its own batch (how many batches run at once). */
  concurrency?: number;
  /** The jobs of one batch run at once rather than one after another. */
  parallel?: boolean;
  /** Runs one job; a throw is a retry (pg-boss schedules it). */
  handle(app: AppContext, job: PgBoss.JobWithMetadata<T>): Promise<void>;
  /** Called instead of a retry when the job has used its last attempt; the job then ends as done. */
  onLastFailure?(app: AppContext, job: PgBoss.JobWithMetadata<T>): Promise<void>;
  /**
   * false when `handle` records its own outcome in jobs_total (it knows outcomes this helper cannot see,
   * such as a job deferred to another process); otherwise each job counts as completed, retry or failed.
   */
  instrument?: boolean;
  /** Once the worker is fetching: work left behind by a previous process (nothing of this one is in flight yet). */
  onStart?(app: AppContext): Promise<void>;
  /** Periodic repair while the worker runs (jobs lost by a crash, deliveries due); a failure waits for the next round. */
  sweep?: { everyMs(config: Config): number; run(app: AppContext): Promise<void> };
}

/** A pg-boss job worker as the process starts and stops it (server/jobs/workers.ts). */
export interface JobWorker {
  readonly queue: string;
  createQueue(boss: PgBoss, config: Config): Promise<void>;
  /** Starts fetching; the handle stops it (the jobs in flight finish under pg-boss's own graceful stop). */
  start(app: AppContext): Promise<RunningWorker>;
}

export interface RunningWorker {
  readonly queue: string;
  stop(): Promise<void>;
}

/**
 * One way to run a queue: fetch loops, the request id of the job around its logs, metrics by outcome, the
 * last-attempt rule, and a periodic sweep, each written once instead of once per worker.
 */
export function defineWorker<T extends JobData>(def: WorkerDefinition<T>): JobWorker {
  const runOne = (app: AppContext, job: PgBoss.JobWithMetadata<T>): Promise<void> =>
    runWithRequestId(job.data.requestId, async () => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        await def.handle(app, job);
        if (def.instrument !== false) recordJob(app, def.queue, 'completed', seconds());
      } catch (err) {
        if (def.instrument === false) throw err;
        const last = job.retryCount >= job.retryLimit;
        recordJob(app, def.queue, last ? 'failed' : 'retry', seconds());
        const ids: JobData = job.data;
        app.log.warn({ queue: def.queue, job: job.id, ...ids, attempt: job.retryCount + 1, last, err: (err as Error).message }, 'job failed');
        if (last && def.onLastFailure) await def.onLastFailure(app, job);
        else throw err;
      }
    });

  // pg-boss schedules a retry within [d·2^n/2, d·2^n] with backoff (n = attempts so far), d without; waking at
  // the end of that window finds it due without waiting for the next poll.
  const runAndWakeForRetry = async (app: AppContext, job: PgBoss.JobWithMetadata<T>): Promise<void> => {
    try {
      await runOne(app, job);
    } catch (err) {
      if (job.retryCount < job.retryLimit) {
        const seconds = job.retryBackoff ? job.retryDelay * 2 ** Math.min(16, job.retryCount + 1) : job.retryDelay;
        wakeWorkers(app.boss, def.queue, seconds * 1000 + 250);
      }
      throw err;
    }
  };

  return {
    queue: def.queue,
    async createQueue(boss, config) {
      await boss.createQueue(def.queue, { name: def.queue, ...def.queueOptions(config) });
    },
    async start(app) {
      const options = { batchSize: def.batchSize, includeMetadata: true as const, pollingIntervalSeconds: app.config.jobPollSeconds };
      for (let i = 0; i < (def.concurrency ?? 1); i++) {
        const id = await app.boss.work<T>(def.queue, options, async (jobs) => {
          if (def.parallel) await Promise.all(jobs.map((job) => runAndWakeForRetry(app, job)));
          else for (const job of jobs) await runAndWakeForRetry(app, job);
        });
        addWorkerLoop(app.boss, def.queue, id);
      }
      await def.onStart?.(app);
      let sweep: NodeJS.Timeout | undefined;
      if (def.sweep) {
        const { run } = def.sweep;
        sweep = setInterval(() => {
          run(app).catch((err: Error) => app.log.warn({ queue: def.queue, err: err.message }, 'job sweep failed'));
        }, def.sweep.everyMs(app.config));
        sweep.unref();
      }
      return {
        queue: def.queue,
        async stop() {
          clearInterval(sweep);
          removeWorkerLoops(app.boss, def.queue);
          await app.boss.offWork(def.queue);
        },
      };
    },
  };
}
