import { loadConfig, type Config } from './config';
import type { Logger } from './logger';
import type { AppContext } from './context';
import { closeServices, createServices } from './services';

export { CLI_TOKEN_FILE, ensureAuthSecret } from './services';

/** A context for the admin CLI, scripts and tests: every service, no HTTP server and no workers; engines built on first use. */
export async function createAppContext(opts: { config?: Config; log?: Logger; cliToken?: boolean } = {}): Promise<AppContext> {
  return createServices(opts.config ?? loadConfig(), { ...opts, lazyEngines: true });
}

export async function closeAppContext(ctx: AppContext): Promise<void> {
  await closeServices(ctx);
}
