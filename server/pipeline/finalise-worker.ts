import type PgBoss from 'pg-boss';
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { ambientSessions } from '../db/schema';
import { transitionSession } from '../domain/sessions/transition-session';
import { enqueueSessionWebhook } from '../webhooks/enqueue-session-webhook';
import { enqueueFinalisation } from './enqueue-finalisation';
import { FinaliseError, finaliseSession } from './finalise-session';
import { ensureFinaliseQueue, FINALISE_QUEUE, finaliseRetryPolicy, type FinaliseJob } from './queue';
import { finaliseLeaseSeconds } from './finalise-lease';
import { observeStage, recordJob } from '../observability/metrics';
import { runWithRequestId } from '../observability/request-context';

/** Finalisations of one session never overlap within a process, whichever job or path started them. */
function sessionLocks(app: AppContext): Map<string, Promise<unknown>> {
  let m = app.services.get('pipeline.session-locks') as Map<string, Promise<unknown>> | undefined;
  if (!m) {
    m = new Map();
    app.services.set('pipeline.session-locks', m);
  }
  return m;
}

async function withSessionLock<T>(app: AppContext, sessionId: string, fn: () => Promise<T>): Promise<T> {
  const locks = sessionLocks(app);
  const prev = locks.get(sessionId) ?? Promise.resolve();
  const run = prev.catch(() => {}).then(fn);
  locks.set(sessionId, run);
  try {
    return await run;
  } finally {
    if (locks.get(sessionId) === run) locks.delete(sessionId);
  }
}

async function notify(app: AppContext, sessionId: string): Promise<void> {
  try {
    await enqueueSessionWebhook(app, sessionId);
  } catch (err) {
    // The outcome is stored; a lost notification is re-sent by the retry of this job.
    app.log.error({ sessionId, err: (err as Error).message }, 'session webhook not queued');
    throw err;
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
        await app.boss.send(FINALISE_QUEUE, job.data, { singletonKey: sessionId, ...finaliseRetryPolicy(), startAfter: finaliseLeaseSeconds() + 1 });
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
      await transitionSession(app, sessionId, 'failed', { allowSame: true, errorCode: code, errorDetail: detail(err), reason: 'finalisation failed' });
    }
    const row = (await app.db.select({ status: ambientSessions.status }).from(ambientSessions).where(eq(ambientSessions.id, sessionId)).limit(1))[0];
    if (row && ['completed', 'skipped', 'failed'].includes(row.status)) await notify(app, sessionId);
  });
}

/** Sessions left running by a crash whose job may be stuck active until it expires are queued again. */
async function requeueRunning(app: AppContext): Promise<void> {
  const rows = await app.db.select({ id: ambientSessions.id }).from(ambientSessions).where(eq(ambientSessions.status, 'running'));
  for (const r of rows) await enqueueFinalisation(app, r.id);
  if (rows.length) app.log.info({ sessions: rows.length }, 'requeued finalisation of running sessions');
}

/**
 * A lease that lapsed without being released belongs to a run that died (kill -9, lost machine); its pg-boss
 * job stays active until it expires, so the session is queued again here and any worker finishes it.
 */
async function requeueAbandoned(app: AppContext): Promise<void> {
  const rows = await app.db
    .select({ id: ambientSessions.id })
    .from(ambientSessions)
    .where(and(isNotNull(ambientSessions.finalisingUntil), lt(ambientSessions.finalisingUntil, sql`now()`)));
  for (const r of rows) await enqueueFinalisation(app, r.id);
  if (rows.length) app.log.warn({ sessions: rows.length }, 'requeued finalisation of sessions whose worker stopped renewing its lease');
}

const SWEEP = 'pipeline.lease-sweep';

export const FINALISE_CONCURRENCY = 2;

export async function startFinaliseWorkers(app: AppContext): Promise<void> {
  await ensureFinaliseQueue(app);
  for (let i = 0; i < FINALISE_CONCURRENCY; i++) {
    await app.boss.work<FinaliseJob>(FINALISE_QUEUE, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await runWithRequestId(job.data.requestId, () => runFinaliseJob(app, job));
    });
  }
  await requeueRunning(app);
  const sweep = setInterval(() => {
    requeueAbandoned(app).catch((err: Error) => app.log.warn({ err: err.message }, 'abandoned finalisation sweep failed'));
  }, finaliseLeaseSeconds() * 1000);
  sweep.unref();
  app.services.set(SWEEP, sweep);
}

export async function stopFinaliseWorkers(app: AppContext): Promise<void> {
  clearInterval(app.services.get(SWEEP) as NodeJS.Timeout | undefined);
  app.services.delete(SWEEP);
  await app.boss.offWork(FINALISE_QUEUE);
}
