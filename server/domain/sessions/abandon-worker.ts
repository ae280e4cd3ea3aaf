import { defineWorker, type JobData } from '../../jobs/define-worker';
import { abandonSession } from './abandon-session';
import { ABANDON_QUEUE, sweepAbandonedSessions } from './sweep-abandoned-sessions';

interface AbandonJob extends JobData {
  sessionId: string;
}

/** Ends visits whose client went away for ABANDONED_AFTER (docs/streaming.md, Abandoned visits). */
export const abandonWorker = defineWorker<AbandonJob>({
  queue: ABANDON_QUEUE,
  // `short`: one waiting job per session (singletonKey), however many processes sweep.
  queueOptions: () => ({ policy: 'short', retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 5 * 60 }),
  batchSize: 1,
  handle: async (app, job) => {
    await abandonSession(app, job.data.sessionId);
  },
  // Visits abandoned while no process was running are ended at start, not one sweep interval later.
  onStart: (app) =>
    sweepAbandonedSessions(app).then(
      () => {},
      (err: Error) => app.log.warn({ err: err.message }, 'abandoned-visit sweep failed'),
    ),
  sweep: { everyMs: (config) => config.abandoned.sweepMs, run: (app) => sweepAbandonedSessions(app).then(() => {}) },
});
