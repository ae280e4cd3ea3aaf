import type PgBoss from 'pg-boss';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { ckgWorker } from '../domain/patient-context/ckg-worker';
import { abandonWorker } from '../domain/sessions/abandon-worker';
import { finaliseWorker } from '../pipeline/finalise-worker';
import { webhookWorker } from '../webhooks/worker';
import type { JobWorker, RunningWorker } from './define-worker';

/** Every job worker, in start order; they stop in reverse. */
export const JOB_WORKERS: readonly JobWorker[] = [webhookWorker, ckgWorker, finaliseWorker, abandonWorker];

export async function createJobQueues(boss: PgBoss, config: Config): Promise<void> {
  for (const worker of JOB_WORKERS) await worker.createQueue(boss, config);
}

export async function startWorkers(app: AppContext): Promise<RunningWorker[]> {
  const running: RunningWorker[] = [];
  for (const worker of JOB_WORKERS) running.push(await worker.start(app));
  return running;
}

/** Stops fetching on every queue; a worker that fails to stop is logged and the rest still stop. */
export async function stopWorkers(app: AppContext, running: RunningWorker[]): Promise<void> {
  for (const worker of [...running].reverse()) {
    await worker.stop().catch((err: Error) => app.log.warn({ queue: worker.queue, err: err.message }, 'worker stop failed'));
  }
}
