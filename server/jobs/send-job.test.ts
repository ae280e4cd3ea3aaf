import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { AppContext } from '../context';
import { startJobQueue, untilTrue, type JobQueueFixture } from '../test/job-queue-fixture';
import { defineWorker } from './define-worker';
import { sendJob } from './send-job';

/**
 * Workers poll seldom (Config.jobPollSeconds) and a job queued in this process wakes them. The poll here is an
 * hour, far beyond the wait below: a job that runs at all was started by a wake, not found by the poll.
 */
const QUEUE = 'send-job-test';
let queue: JobQueueFixture | undefined;
let app: AppContext;
const ran: Array<{ name: string; retry: number }> = [];

const worker = defineWorker<{ name: string; requestId?: string }>({
  queue: QUEUE,
  queueOptions: () => ({ retryLimit: 1, retryDelay: 1 }),
  batchSize: 1,
  concurrency: 2,
  handle: async (_app, job) => {
    ran.push({ name: job.data.name, retry: job.retryCount });
    if (job.data.name === 'flaky' && job.retryCount === 0) throw new Error('first attempt fails');
  },
});

beforeAll(async () => {
  queue = await startJobQueue(worker, { JOB_POLL_SECONDS: '3600' });
  app = queue.app;
  // The loops' first fetch, made as they start, has found nothing: from here on only a wake fetches.
  await new Promise((r) => setTimeout(r, 500));
}, 120_000);

afterAll(async () => {
  await queue?.close();
});

describe('sendJob', () => {
  it('takes the poll interval from the database: seldom on PGlite, where this process queues every job', () => {
    expect(loadConfig({ DATA_DIR: app.config.dataDir }).jobPollSeconds).toBe(10);
    expect(loadConfig({ DATA_DIR: app.config.dataDir, DATABASE_URL: 'postgres://127.0.0.1/x' }).jobPollSeconds).toBe(1);
    expect(app.config.jobPollSeconds).toBe(3600);
  });

  it('wakes a polling worker of this process for a job due now', async () => {
    await sendJob(app, QUEUE, { name: 'now' });
    await untilTrue(() => ran.some((r) => r.name === 'now'), 'the job queued now');
  });

  it('wakes it again when a job queued for later becomes due', async () => {
    await sendJob(app, QUEUE, { name: 'later' }, { startAfter: 1 });
    expect(ran.some((r) => r.name === 'later')).toBe(false);
    await untilTrue(() => ran.some((r) => r.name === 'later'), 'the job queued for a second later');
  });

  it('wakes it for the retry of a failed attempt', async () => {
    await sendJob(app, QUEUE, { name: 'flaky' });
    await untilTrue(() => ran.filter((r) => r.name === 'flaky').length === 2, 'the retry');
    expect(ran.filter((r) => r.name === 'flaky')).toEqual([
      { name: 'flaky', retry: 0 },
      { name: 'flaky', retry: 1 },
    ]);
  });
});
