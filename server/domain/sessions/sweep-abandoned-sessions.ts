import type { AppContext } from '../../context';
import { sendJob } from '../../jobs/send-job';
import { findAbandonedSessions } from './find-abandoned-sessions';

/** The abandon worker's queue (abandon-worker.ts): one job per abandoned session. */
export const ABANDON_QUEUE = 'session.abandon';

/**
 * Queues each abandoned visit for its abandon job. Every process with workers sweeps; the singleton key
 * keeps one waiting job per session, and the job itself is safe to run twice (abandon-session.ts).
 */
export async function sweepAbandonedSessions(app: AppContext): Promise<number> {
  const ids = await findAbandonedSessions(app, { afterMs: app.config.abandoned.afterMs });
  for (const sessionId of ids) await sendJob(app, ABANDON_QUEUE, { sessionId }, { singletonKey: sessionId });
  if (ids.length > 0) app.log.info({ sessions: ids.length }, 'abandoned visits queued for ending');
  return ids.length;
}
