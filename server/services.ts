import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type PgBoss from 'pg-boss';
import type { Config } from './config';
import type { AppContext, LazyService, Services } from './context';
import { createLogger, type Logger } from './logger';
import { openDatabase } from './db';
import { startBoss } from './jobs/boss';
import { createJobQueues } from './jobs/workers';
import { loadServiceKeys } from './auth/service-keys';
import { loadSecretBox, sha256Hex } from './auth/secret-box';
import { createPartnerKeyCache } from './auth/partner-keys';
import { createConsoleResolver } from './auth/console-resolver';
import { createSignInLimits } from './domain/users/sign-in-limits';
import { loadRecordingUrlKey } from './domain/sessions/recording-url';
import { createAuthRateLimiter, createRateLimitSweeper } from './http/rate-limit';
import { openBlobStore } from './blob/index';
import { loadCodeIndex } from './codesets/service';
import { createSpeechEngine, parseSpeechSettings, speechEngineBuildsAtStart } from './engines/speech/index';
import { createNotesEngine } from './engines/notes/index';
import { createMetrics } from './observability/metrics';
import { closeStatusBus, createStatusBus } from './status/status-bus';
import { createStatusCache } from './status/status-cache';
import { registerSseMetrics, SseRegistry } from './status/sse-registry';
import { StreamHub } from './realtime/hub';
import { streamRoutes } from './realtime/index';
import { createDbStreamSlots } from './realtime/stream-slots-db';
import { createWebSocketServer } from './realtime/upgrade';
import { runSteps, type Step } from './shutdown';

export type { LazyService, Services };

export function lazyService<T>(build: () => T, close: (value: T) => Promise<void> = async () => {}): LazyService<T> {
  let value: T | undefined;
  return {
    get: () => (value ??= build()),
    async close() {
      const built = value;
      value = undefined;
      if (built !== undefined) await close(built);
    },
  };
}

export const CLI_TOKEN_FILE = 'admin-cli.token';

/**
 * next-auth signs its session cookies with this secret (auth.ts passes it in its config): AUTH_SECRET, else one
 * generated per data directory on first start. The console resolver checks the same cookies.
 */
export function ensureAuthSecret(config: Pick<Config, 'dataDir' | 'auth'>): string {
  if (config.auth.secret) return config.auth.secret;
  const file = path.join(config.dataDir, 'keys', 'auth-secret');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * The composition root: builds every service from the configuration, in dependency order, and returns the
 * context that main.ts, worker.ts and the scripts hand to whatever needs it (context.ts declares the ports).
 * Workers and the HTTP server are started by main.ts and worker.ts, not here.
 */
export async function createServices(given: Config, opts: { log?: Logger; cliToken?: boolean; lazyEngines?: boolean } = {}): Promise<AppContext> {
  const log = opts.log ?? createLogger(given.logLevel);
  fs.mkdirSync(given.dataDir, { recursive: true });
  const authSecret = ensureAuthSecret(given);
  const config: Config = { ...given, auth: { ...given.auth, secret: authSecret } };
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.pgPoolMax });
  let boss: PgBoss | undefined;
  try {
    const keys = await loadServiceKeys(config.dataDir, config.serviceSigningJwk);
    boss = await startBoss(database, config.databaseUrl);
    // Every process that enqueues (web-only ones too) needs the queues to exist.
    await createJobQueues(boss, config);
    const codes = await loadCodeIndex({ db: database.db, config, log });
    const statusBus = createStatusBus({ config, database, log });
    const hub = new StreamHub();
    // Assigned below: the console resolver reads users through the whole context.
    const ctx = {
      config,
      log,
      database,
      db: database.db,
      boss,
      keys,
      secrets: loadSecretBox(config.dataDir, config.secretKey),
      partnerKeys: createPartnerKeyCache({
        cooldownMs: config.jwksCooldownMs,
        allowPrivate: config.webhookAllowPrivate,
        onFetchError: (uri, reason) => log.warn({ jwksUri: uri, reason }, 'partner JWKS fetch failed'),
      }),
      startedAt: new Date(),
    } as AppContext;
    ctx.services = {
      metrics: createMetrics(() => hub.bySession.size),
      codes,
      speech: lazyService(
        () => createSpeechEngine(parseSpeechSettings(config.speech)),
        (engine) => engine.close(),
      ),
      // Built on first use, when the metrics registry exists: the guard in front of the engine counts into it.
      notes: lazyService(() => createNotesEngine({ ...config.notes, codes, metrics: ctx.services.metrics.registry, log })),
      blob: lazyService(
        () => openBlobStore(config.blob),
        (store) => store.close(),
      ),
      statusBus,
      statusCache: createStatusCache(statusBus, config.statusBus.cacheTtlMs),
      hub,
      openStreams: hub,
      sse: new SseRegistry({
        perProvider: config.sse.streamsPerProvider,
        perPartner: config.sse.streamsPerPartner,
        perProcess: config.sse.streamsMax,
        maxLifetimeMs: config.sse.maxLifetimeMs,
      }),
      slots: createDbStreamSlots({
        db: database.db,
        log,
        limits: { perProvider: config.ws.streamsPerProvider, perPartner: config.ws.streamsPerPartner },
      }),
      wss: createWebSocketServer(config),
      wsRoutes: streamRoutes(),
      consoleResolver: createConsoleResolver(ctx, authSecret),
      tokenCache: new Map(),
      linkCache: new Map(),
      authRateLimiter: createAuthRateLimiter(database.db, config.rateLimitAuthPerMinute),
      signInLimits: createSignInLimits(database.db, config.signIn),
      rateLimitSweeper: createRateLimitSweeper(database.db, log),
      sessionLocks: new Map(),
      recordingUrlKey: loadRecordingUrlKey(config),
    };
    registerSseMetrics(ctx.services.metrics.registry, ctx.services.sse);
    // A neural model directory is checked before the first visit: a bad one stops start-up, naming the file.
    // The admin CLI and scripts (lazyEngines) rarely need speech, and should not load a model to list users.
    if (!opts.lazyEngines && speechEngineBuildsAtStart(config.speech)) ctx.services.speech.get();
    if (opts.cliToken) {
      // The admin CLI talks to a running server with this token, since PGlite admits one process.
      const token = crypto.randomBytes(32).toString('base64url');
      fs.writeFileSync(path.join(config.dataDir, CLI_TOKEN_FILE), token, { mode: 0o600 });
      ctx.cliTokenHash = sha256Hex(token);
    }
    return ctx;
  } catch (err) {
    // A half-built process must still exit: pg-boss keeps timers and connections open.
    await boss?.stop({ graceful: false, wait: true }).catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }
}

/**
 * The last steps of every shutdown, after streams and workers have stopped (main.ts, worker.ts): the engines
 * and blob store, then the status bus, then pg-boss, then the database everything above wrote to.
 */
export function closeSteps(ctx: AppContext): Step[] {
  const { services } = ctx;
  return [
    ['close engines and blob store', async () => {
      await Promise.all([
        services.speech.close().catch((err: Error) => ctx.log.warn({ err: err.message }, 'speech engine close failed')),
        services.notes.close(),
        services.blob.close(),
      ]);
    }],
    // Streams have ended by now; this gives back what a stream's own release could not write.
    ['release stream slots', () => services.slots.close()],
    ['stop the rate-limit sweeper', async () => services.rateLimitSweeper.stop()],
    ['close status bus', () => closeStatusBus(ctx)],
    ['stop pg-boss', () => ctx.boss.stop({ graceful: true, wait: true, timeout: 10_000 })],
    ['close database', async () => {
      await ctx.database.close();
      if (ctx.cliTokenHash) fs.rmSync(path.join(ctx.config.dataDir, CLI_TOKEN_FILE), { force: true });
    }],
  ];
}

/** Closes what createServices built (scripts, the admin CLI and tests that build a context of their own). */
export async function closeServices(ctx: AppContext): Promise<void> {
  await runSteps(ctx.log, closeSteps(ctx));
}
