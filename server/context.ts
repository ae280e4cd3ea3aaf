import type PgBoss from 'pg-boss';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { Logger } from './logger';
import type { ServiceKeys } from './auth/service-keys';
import type { SecretBox } from './auth/secret-box';
import type { PartnerKeyCache } from './auth/partner-keys';
import type { Services } from './services';

/**
 * Everything stateful the server holds. It lives on globalThis because Next bundles its own copy of the
 * server modules for route handlers, and both copies must share one database, one queue and one key set.
 */
export interface AppContext {
  config: Config;
  log: Logger;
  database: Database;
  db: Db;
  boss: PgBoss;
  keys: ServiceKeys;
  secrets: SecretBox;
  partnerKeys: PartnerKeyCache;
  /** Hash of the token the local admin CLI reads from DATA_DIR while the server holds the database. */
  cliTokenHash?: string;
  /** Everything else the process holds (engines, blob store, metrics, realtime hub …), built by createServices. */
  services: Services;
  startedAt: Date;
}

const KEY = Symbol.for('ambient.app-context');
type Holder = { [KEY]?: AppContext };

export function setAppContext(ctx: AppContext | undefined): void {
  (globalThis as Holder)[KEY] = ctx;
}

export function getAppContext(): AppContext {
  const ctx = (globalThis as Holder)[KEY];
  if (!ctx) throw new Error('the application context is not initialised; start the service with server/main.ts');
  return ctx;
}
