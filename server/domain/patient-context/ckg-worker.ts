import { defineWorker } from '../../jobs/define-worker';
import { CKG_JOB_RETRY_LIMIT, CKG_QUEUE, type CkgJob } from './ckg-queue';
import { failCkgTransaction } from './fail-ckg-transaction';
import { processCkgTransaction } from './process-ckg-transaction';
import { sweepCkgTransactions } from './sweep-ckg-transactions';

const SWEEP_INTERVAL_MS = 60_000;
/** Longer than a job's whole retry ladder, so the sweeper only picks up transactions whose job is gone. */
const SWEEP_AGE_MS = 10 * 60_000;

/** Applies CKG bundles to the patient context; a transaction that fails its last attempt is marked failed. */
export const ckgWorker = defineWorker<CkgJob>({
  queue: CKG_QUEUE,
  queueOptions: () => ({ retryLimit: CKG_JOB_RETRY_LIMIT, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60 }),
  batchSize: 1,
  handle: async (app, job) => {
    await processCkgTransaction(app, job.data.transactionId);
  },
  onLastFailure: (app, job) => failCkgTransaction(app, job.data.transactionId).then(() => {}),
  // At start nothing is in flight in this process; older unfinished transactions lost their job.
  onStart: (app) => sweepCkgTransactions(app, 60_000).then(
    () => {},
    (err: Error) => app.log.warn({ err: err.message }, 'CKG sweep failed'),
  ),
  sweep: { everyMs: () => SWEEP_INTERVAL_MS, run: (app) => sweepCkgTransactions(app, SWEEP_AGE_MS).then(() => {}) },
});
