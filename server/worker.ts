import { loadConfig } from './config';
import { createLogger } from './logger';
import { closeSteps, createServices } from './services';
import { startWorkers, stopWorkers } from './jobs/workers';
import { onShutdownSignal, runSteps } from './shutdown';

/**
 * `npm run worker`: background jobs (finalisation, webhooks, CKG) without HTTP, for deployments that scale
 * workers apart from the web processes. PGlite admits one process per data directory, so a separate
 * worker needs DATABASE_URL (PostgreSQL); with PGlite the web process runs the workers itself.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (config.workers < 1) throw new Error('WORKERS must be at least 1 for the worker process');
  const ctx = await createServices(config, { log });
  const workers = await startWorkers(ctx);
  log.info({ database: ctx.database.kind }, 'worker started');

  // Shutdown, in order: stop the workers, then the services as the web process closes them (closeSteps).
  // Past forceMs a job still running is abandoned; pg-boss hands it to another worker once it expires.
  onShutdownSignal(log, {
    label: 'worker',
    forceMs: 60_000,
    stop: () => runSteps(log, [['stop workers', () => stopWorkers(ctx, workers)], ...closeSteps(ctx)]),
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
