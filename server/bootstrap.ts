import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from './config';
import { createLogger, type Logger } from './logger';
import { openDatabase } from './db/client';
import { startBoss } from './jobs/boss';
import { loadServiceKeys } from './auth/service-keys';
import { loadSecretBox, sha256Hex } from './auth/secret-box';
import { createPartnerKeyCache } from './auth/partner-keys';
import { setAppContext, type AppContext } from './context';

export const CLI_TOKEN_FILE = 'admin-cli.token';

/** next-auth signs its session cookies with AUTH_SECRET; generate one per data directory on first start. */
export function ensureAuthSecret(dataDir: string): void {
  if (process.env.AUTH_SECRET) return;
  const file = path.join(dataDir, 'keys', 'auth-secret');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600 });
  process.env.AUTH_SECRET = fs.readFileSync(file, 'utf8').trim();
  process.env.AUTH_TRUST_HOST ??= 'true';
}

export async function createAppContext(opts: { config?: Config; log?: Logger; cliToken?: boolean } = {}): Promise<AppContext> {
  const config = opts.config ?? loadConfig();
  const log = opts.log ?? createLogger(config.logLevel);
  fs.mkdirSync(config.dataDir, { recursive: true });
  ensureAuthSecret(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const [keys, boss] = [await loadServiceKeys(config.dataDir), await startBoss(database, config.databaseUrl)];
    const ctx: AppContext = {
      config,
      log,
      database,
      db: database.db,
      boss,
      keys,
      secrets: loadSecretBox(config.dataDir),
      partnerKeys: createPartnerKeyCache({
        cooldownMs: config.jwksCooldownMs,
        allowPrivate: config.webhookAllowPrivate,
        onFetchError: (uri, reason) => log.warn({ jwksUri: uri, reason }, 'partner JWKS fetch failed'),
      }),
      services: new Map(),
      startedAt: new Date(),
    };
    if (opts.cliToken) {
      // The admin CLI talks to a running server with this token, since PGlite admits one process.
      const token = crypto.randomBytes(32).toString('base64url');
      fs.writeFileSync(path.join(config.dataDir, CLI_TOKEN_FILE), token, { mode: 0o600 });
      ctx.cliTokenHash = sha256Hex(token);
    }
    setAppContext(ctx);
    return ctx;
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}

export async function closeAppContext(ctx: AppContext): Promise<void> {
  setAppContext(undefined);
  await ctx.boss.stop({ graceful: true, wait: true, timeout: 10_000 }).catch(() => {});
  await ctx.database.close().catch(() => {});
  if (ctx.cliTokenHash) fs.rmSync(path.join(ctx.config.dataDir, CLI_TOKEN_FILE), { force: true });
}
