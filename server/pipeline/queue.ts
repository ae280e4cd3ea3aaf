import type { AppContext } from '../context';

export const FINALISE_QUEUE = 'session.finalise';

export interface FinaliseJob {
  sessionId: string;
  /** The request that ended the audio, so the job's log lines can be found from it. */
  requestId?: string;
}

function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** Retry policy of finalisation; FINALISE_RETRY_LIMIT retries after the first attempt, backoff doubling from FINALISE_RETRY_DELAY_SECONDS. */
export function finaliseRetryPolicy() {
  return {
    retryLimit: envInt('FINALISE_RETRY_LIMIT', 3),
    retryDelay: envInt('FINALISE_RETRY_DELAY_SECONDS', 15),
    retryBackoff: true,
    expireInSeconds: envInt('FINALISE_TIMEOUT_SECONDS', 30 * 60),
  };
}

/**
 * Policy `short`: at most one queued job per session (singletonKey), so EOF, REST end and the start-up sweep
 * can all enqueue without piling up work. `stately` would also forbid a second active job, but a job left
 * active by a crashed process would then block every fetch on the queue until it expires; instead the job
 * itself is idempotent and serialised per session in process (see finalise-worker).
 */
export function ensureFinaliseQueue(app: AppContext): Promise<void> {
  const key = 'pipeline.queue-ready';
  let ready = app.services.get(key) as Promise<void> | undefined;
  if (!ready) {
    ready = app.boss.createQueue(FINALISE_QUEUE, { name: FINALISE_QUEUE, policy: 'short', ...finaliseRetryPolicy() });
    ready.catch(() => app.services.delete(key));
    app.services.set(key, ready);
  }
  return ready;
}
