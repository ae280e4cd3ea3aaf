import { loadConfig } from './config';
import { createLogger } from './logger';
import { closeAppContext, createAppContext } from './bootstrap';
import { startServices } from './services';
import { onShutdownSignal } from './shutdown';
import './register-services';

/**
 * `npm run worker`: background jobs (finalisation, webhooks, CKG) without HTTP, for deployments that scale
 * workers apart from the web processes. PGlite admits one process per data directory, so a separate
 * worker needs DATABASE_URL (PostgreSQL); with PGlite the web process runs the workers itself.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (config.workers < 1) throw new Error('WORKERS must be at least 1 for the worker process');
  const ctx = await createAppContext({ config, log });
  const stopServices = await startServices(ctx, { workers: true });
  log.info({ database: ctx.database.kind }, 'worker started');

  // Past forceMs a job still running is abandoned; pg-boss hands it to another worker once it expires.
  onShutdownSignal(log, {
    label: 'worker',
    forceMs: 60_000,
    stop: async () => {
      await stopServices();
      await closeAppContext(ctx);
    },
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
