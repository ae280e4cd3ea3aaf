import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type PgBoss from 'pg-boss';
import { loadConfig } from '../config';
import type { AppContext } from '../context';
import { openDatabase, type Database } from '../db/client';
import type { JobWorker, RunningWorker } from '../jobs/define-worker';
import { startBoss } from '../jobs/boss';
import { createLogger } from '../logger';
import { createMetrics, type Metrics } from '../observability/metrics';

/** A real pg-boss on a PGlite of its own, with the one worker under test started (server/jobs tests). */
export interface JobQueueFixture {
  app: AppContext;
  boss: PgBoss;
  metrics: Metrics;
  close(): Promise<void>;
}

export async function startJobQueue(worker: JobWorker, env: Record<string, string> = {}): Promise<JobQueueFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${worker.queue}-`));
  const database: Database = await openDatabase({ dataDir: dir });
  const boss = await startBoss(database);
  const metrics = createMetrics(() => 0);
  const config = loadConfig({ ...process.env, DATA_DIR: dir, ...env });
  const app = { config, log: createLogger('silent'), database, db: database.db, boss, services: { metrics } } as unknown as AppContext;
  await worker.createQueue(boss, config);
  const running: RunningWorker = await worker.start(app);
  return {
    app,
    boss,
    metrics,
    async close() {
      await running.stop();
      await boss.stop({ graceful: false, wait: true });
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `done` until it holds, failing with `what` after a minute (a wedged queue, not a slow machine). */
export async function untilTrue(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
