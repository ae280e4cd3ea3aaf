import type { Config } from '../config';
import type { AppContext } from '../context';
import { currentRequestId } from '../observability/request-context';
import { sendJob } from './send-job';

// The finalisation queue (server/pipeline/finalise-worker.ts works it): here, not in the pipeline, because
// streams (server/realtime) and the REST end queue it and import nothing from the pipeline.

export const FINALISE_QUEUE = 'session.finalise';

export interface FinaliseJob {
  sessionId: string;
  /** The request that ended the audio, so the job's log lines can be found from it. */
  requestId?: string;
}

/** Retry policy of finalisation (Config.finalise): retries after the first attempt, backoff doubling from the delay. */
export function finaliseRetryPolicy(config: Pick<Config, 'finalise'>) {
  return {
    retryLimit: config.finalise.retryLimit,
    retryDelay: config.finalise.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: config.finalise.timeoutSeconds,
  };
}

/**
 * Queues the durable finalisation of a session whose audio has ended (stream EOF or REST end). Safe to
 * call more than once: a job already waiting for the session absorbs the call.
 */
export async function enqueueFinalisation(app: AppContext, sessionId: string): Promise<string | null> {
  return sendJob(app, FINALISE_QUEUE, { sessionId, requestId: currentRequestId() } satisfies FinaliseJob, { singletonKey: sessionId, ...finaliseRetryPolicy(app.config) });
}
