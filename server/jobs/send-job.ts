import type PgBoss from 'pg-boss';
import type { AppContext } from '../context';
import { wakeWorkers } from './wake-workers';

/** How long until a job sent with this startAfter is due (pg-boss takes seconds, an ISO string or a Date). */
function dueInMs(startAfter: PgBoss.SendOptions['startAfter']): number {
  if (startAfter === undefined) return 0;
  if (typeof startAfter === 'number') return startAfter * 1000;
  return new Date(startAfter).getTime() - Date.now();
}

/**
 * Queues a job and wakes this process's workers of the queue when it is due, so workers can poll seldom
 * (Config.jobPollSeconds) and still start a job at once. Another process's workers find it at their poll.
 */
export async function sendJob(app: AppContext, queue: string, data: object, options: PgBoss.SendOptions = {}): Promise<string | null> {
  const id = await app.boss.send(queue, data, options);
  if (id) wakeWorkers(app.boss, queue, dueInMs(options.startAfter));
  return id;
}
