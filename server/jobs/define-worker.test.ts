import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import type { Metrics } from '../observability/metrics';
import { currentRequestId } from '../observability/request-context';
import { startJobQueue, untilTrue, type JobQueueFixture } from '../test/job-queue-fixture';
import { defineWorker } from './define-worker';
import { sendJob } from './send-job';

/** defineWorker against a real pg-boss on PGlite: the request id, retries, the last-attempt rule and the counts. */
interface TestJob {
  name: string;
  requestId?: string;
}

let queue: JobQueueFixture | undefined;
let metrics: Metrics;
let app: AppContext;
const attempts: Array<{ name: string; retry: number; requestId: string | undefined }> = [];
const gaveUp: string[] = [];

const worker = defineWorker<TestJob>({
  queue: 'define-worker-test',
  queueOptions: () => ({ retryLimit: 1, retryDelay: 0 }),
  batchSize: 1,
  handle: async (_app, job) => {
    attempts.push({ name: job.data.name, retry: job.retryCount, requestId: currentRequestId() });
    if (job.data.name === 'flaky' && job.retryCount === 0) throw new Error('first attempt fails');
    if (job.data.name === 'broken') throw new Error('every attempt fails');
  },
  onLastFailure: async (_app, job) => {
    gaveUp.push(job.data.name);
  },
});

async function count(outcome: string): Promise<number> {
  const { values } = await metrics.jobs.get();
  return values.find((v) => v.labels.queue === 'define-worker-test' && v.labels.outcome === outcome)?.value ?? 0;
}

beforeAll(async () => {
  queue = await startJobQueue(worker);
  ({ app, metrics } = queue);
}, 120_000);

afterAll(async () => {
  await queue?.close();
});

describe('defineWorker', () => {
  it('runs a job under the request that queued it and retries it after a failure', async () => {
    await sendJob(app, 'define-worker-test', { name: 'flaky', requestId: 'req-flaky' } satisfies TestJob);
    await untilTrue(() => attempts.filter((a) => a.name === 'flaky').length === 2, 'the retry of the flaky job');
    expect(attempts.filter((a) => a.name === 'flaky')).toEqual([
      { name: 'flaky', retry: 0, requestId: 'req-flaky' },
      { name: 'flaky', retry: 1, requestId: 'req-flaky' },
    ]);
    expect(await count('retry')).toBe(1);
    expect(gaveUp).not.toContain('flaky');
  }, 90_000);

  it('hands a job that failed its last attempt to onLastFailure and counts it as failed', async () => {
    await sendJob(app, 'define-worker-test', { name: 'broken' } satisfies TestJob);
    await untilTrue(() => gaveUp.includes('broken'), 'onLastFailure of the broken job');
    expect(attempts.filter((a) => a.name === 'broken').map((a) => a.retry)).toEqual([0, 1]);
    expect(await count('failed')).toBe(1);
    // The flaky job's second attempt completed; the broken job's first attempt was a retry.
    expect(await count('completed')).toBe(1);
    expect(await count('retry')).toBe(2);
  }, 90_000);
});
