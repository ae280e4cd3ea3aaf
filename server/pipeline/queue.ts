import type { Config } from '../config';

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
