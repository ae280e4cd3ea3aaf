import type PgBoss from 'pg-boss';
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { ambientSessions } from '../db/schema';
import { finishSession } from './finish-session';
import { FinaliseError, finaliseSession } from './finalise-session';
import { enqueueFinalisation, FINALISE_QUEUE, finaliseRetryPolicy, type FinaliseJob } from '../jobs/finalise-queue';
import { finaliseLeaseSeconds } from './finalise-lease';
import { observeStage, recordJob } from '../observability/metrics';
import { defineWorker } from '../jobs/define-worker';
import { sendJob } from '../jobs/send-job';
import { systemDb } from '../db/index';

const SYSTEM = 'finalisation worker: sessions of every tenant';

/** Finalisations of one session never overlap within a process, whichever job or path started them. */
async function withSessionLock<T>(app: AppContext, sessionId: string, fn: () => Promise<T>): Promise<T> {
  const locks = app.services.sessionLocks;
  const prev = locks.get(sessionId) ?? Promise.resolve();
  const run = prev.catch(() => {}).then(fn);
  locks.set(sessionId, run);
  try {
    return await run;
  } finally {
    if (locks.get(sessionId) === run) locks.delete(sessionId);
  }
}

/** Error details go to the partner and the logs: the message of our own errors, never engine output. */
function detail(err: unknown): string {
  const m = err instanceof FinaliseError ? err.message : 'internal error while processing the session';
  return m.length > 500 ? `${m.slice(0, 497)}...` : m;
}

export async function runFinaliseJob(app: AppContext, job: PgBoss.JobWithMetadata<FinaliseJob>): Promise<void> {
  const { sessionId } = job.data;
  await withSessionLock(app, sessionId, async () => {
    const started = Date.now();
    try {
      const outcome = await finaliseSession(app, sessionId);
      if (outcome === 'busy') {
        // Another process is finalising the session. Look again once its lease could have lapsed, so a
        // holder that crashed is taken over; if it finishes first, that job finds the session terminal.
        await sendJob(app, FINALISE_QUEUE, job.data, { singletonKey: sessionId, ...finaliseRetryPolicy(app.config), startAfter: finaliseLeaseSeconds(app.config) + 1 });
        app.log.info({ sessionId }, 'session finalisation held by another run; checking again after its lease');
        return;
      }
      app.log.info({ sessionId, outcome, ms: Date.now() - started, attempt: job.retryCount + 1 }, 'session finalised');
      recordJob(app, FINALISE_QUEUE, 'completed', (Date.now() - started) / 1000);
      observeStage(app, 'total', (Date.now() - started) / 1000);
    } catch (err) {
      const code = err instanceof FinaliseError ? err.code : 'PROCESSING_FAILED';
      const last = job.retryCount >= job.retryLimit;
      app.log.warn({ sessionId, code, err: (err as Error).message, attempt: job.retryCount + 1, last }, 'session finalisation failed');
      recordJob(app, FINALISE_QUEUE, last ? 'failed' : 'retry', (Date.now() - started) / 1000);
      if (!last) throw err;
      await finishSession(app, sessionId, 'failed', { errorCode: code, errorDetail: detail(err), reason: 'finalisation failed' });
    }
  });
}

/** Sessions left running by a crash whose job may be stuck active until it expires are queued again. */
async function requeueRunning(app: AppContext): Promise<void> {
  const rows = await systemDb(app, SYSTEM).select({ id: ambientSessions.id }).from(ambientSessions).where(eq(ambientSessions.status, 'running'));
  for (const r of rows) await enqueueFinalisation(app, r.id);
  if (rows.length) app.log.info({ sessions: rows.length }, 'requeued finalisation of running sessions');
}

/**
 * A lease that lapsed without being released belongs to a run that died (kill -9, lost machine); its pg-boss
 * job stays active until it expires, so the session is queued again here and any worker finishes it.
 */
async function requeueAbandoned(app: AppContext): Promise<void> {
  const rows = await systemDb(app, SYSTEM)
    .select({ id: ambientSessions.id })
    .from(ambientSessions)
    .where(and(isNotNull(ambientSessions.finalisingUntil), lt(ambientSessions.finalisingUntil, sql`now()`)));
  for (const r of rows) await enqueueFinalisation(app, r.id);
  if (rows.length) app.log.warn({ sessions: rows.length }, 'requeued finalisation of sessions whose worker stopped renewing its lease');
}

export const FINALISE_CONCURRENCY = 2;

/** Finalises sessions whose audio has ended; runFinaliseJob records its own outcomes (a busy session is neither). */
export const finaliseWorker = defineWorker<FinaliseJob>({
  queue: FINALISE_QUEUE,
  // Policy `short`: at most one queued job per session (singletonKey), so EOF, REST end and the start-up sweep
  // can all enqueue without piling up work. `stately` would also forbid a second active job, but a job left
  // active by a crashed process would then block every fetch on the queue until it expires; instead the job
  // itself is idempotent and serialised per session in process (withSessionLock).
  queueOptions: (config) => ({ policy: 'short', ...finaliseRetryPolicy(config) }),
  batchSize: 1,
  concurrency: FINALISE_CONCURRENCY,
  instrument: false,
  handle: runFinaliseJob,
  onStart: requeueRunning,
  sweep: { everyMs: (config) => finaliseLeaseSeconds(config) * 1000, run: requeueAbandoned },
});
