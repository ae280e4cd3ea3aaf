import type { AppContext } from '../context';

export const FINALISE_QUEUE = 'session.finalise';

/**
 * Queues the durable finalisation job for a session whose audio has ended. The singleton key makes a
 * repeated end (EOF and POST …/end, or a retried request) queue the work once.
 */
export async function enqueueFinalisation(app: Pick<AppContext, 'boss'>, sessionId: string): Promise<void> {
  await app.boss.createQueue(FINALISE_QUEUE).catch(() => {});
  await app.boss.send(FINALISE_QUEUE, { sessionId }, { singletonKey: sessionId });
}
