import type { AppContext } from '../context';
import { FINALISE_QUEUE, finaliseRetryPolicy, type FinaliseJob } from './queue';
import { currentRequestId } from '../observability/request-context';

/**
 * Queues the durable finalisation of a session whose audio has ended (stream EOF or REST end). Safe to
 * call more than once: a job already waiting for the session absorbs the call.
 */
export async function enqueueFinalisation(app: AppContext, sessionId: string): Promise<string | null> {
  return app.boss.send(FINALISE_QUEUE, { sessionId, requestId: currentRequestId() } satisfies FinaliseJob, { singletonKey: sessionId, ...finaliseRetryPolicy(app.config) });
}
