import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type PgBoss from 'pg-boss';
import type { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { WebSocketServer } from 'ws';
import type { Config } from './config';
import type { Database, Db } from './db';
import type { Logger } from './logger';
import type { ServiceKeys } from './auth/service-keys';
import type { SecretBox } from './auth/secret-box';
import type { PartnerKeyCache } from './auth/partner-keys';
import type { CachedClaims, CachedLink, ConsoleAdminResolver } from './auth/principals';
import type { Metrics } from './observability/metrics';
import type { CodeIndex } from './codesets/index';
import type { SpeechEngine } from './engines/speech/types';
import type { NotesEngine } from './engines/notes/types';
import type { BlobStore } from './blob/types';
import type { StatusBus } from './status/status-types';
import type { StatusCache } from './status/status-cache';
import type { SseRegistry } from './status/sse-registry';
import type { StreamHub } from './realtime/hub';
import type { OpenStreams } from './pipeline/open-streams';
import type { StreamSlots } from './realtime/stream-slots';

/**
 * The ports: what the process holds, by name and type. This module declares them and imports only the
 * types of leaf modules (none of which imports this one back); server/services.ts, the composition root,
 * builds every one of them. Code that uses a service reaches it through `app.services` and never builds it.
 */

/** A service built on first use, because building it is costly (decoder threads) or may fail on bad settings. */
export interface LazyService<T> {
  /** Builds it on the first call; a failed build throws to the caller and is tried again on the next. */
  get(): T;
  /** Closes it if it was built. */
  close(): Promise<void>;
}

/** Handles a WebSocket upgrade on one path (server/realtime: /ws/ambient, /ws/transcribe). */
export type UpgradeHandler = (ctx: AppContext, req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Console password sign-in limiters (server/domain/users/sign-in-limits.ts says what each counts). Their
 * counters live in the rate_limits table, so every process of a deployment sees the same ones.
 */
export interface SignInLimits {
  pairFailures: RateLimiterDrizzle;
  pairBlock: RateLimiterDrizzle;
  account: RateLimiterDrizzle;
  address: RateLimiterDrizzle;
  unknownAccountAddress: RateLimiterDrizzle;
  known: RateLimiterDrizzle;
}

/** A timer a service runs for as long as the process lives; createServices registers it in closeSteps. */
export interface Sweeper {
  stop(): void;
}

/** Everything the process holds besides its database, queue and keys; built once by createServices. */
export interface Services {
  metrics: Metrics;
  /** Code sets the notes engine codes diagnoses and drugs with: imported tables, else files, else built in. */
  codes: CodeIndex;
  speech: LazyService<SpeechEngine>;
  notes: LazyService<NotesEngine>;
  blob: LazyService<BlobStore>;
  /** Replaced by an in-process bus when it closes, so a change written during shutdown opens no connection. */
  statusBus: StatusBus;
  statusCache: StatusCache;
  hub: StreamHub;
  /** The streams open in this process, as the finaliser sees them (server/pipeline/open-streams.ts): the hub. */
  openStreams: OpenStreams;
  /** Status event streams open here, under the SSE caps. */
  sse: SseRegistry;
  slots: StreamSlots;
  wss: WebSocketServer;
  /** The WebSocket endpoints by path (server/realtime/index.ts lists them). */
  wsRoutes: ReadonlyMap<string, UpgradeHandler>;
  consoleResolver: ConsoleAdminResolver;
  tokenCache: Map<string, CachedClaims>;
  linkCache: Map<string, CachedLink>;
  /** Register and login attempts per client address (server/http/rate-limit.ts). */
  authRateLimiter: RateLimiterDrizzle;
  /** Console password sign-in limits (server/domain/users/sign-in-limits.ts). */
  signInLimits: SignInLimits;
  /** Deletes expired rate_limits rows (every limiter above counts there). */
  rateLimitSweeper: Sweeper;
  /** Finalisations running in this process, by session (finalise-worker). */
  sessionLocks: Map<string, Promise<unknown>>;
  /** The HMAC key of recording URLs (server/domain/sessions/recording-url.ts). */
  recordingUrlKey: Buffer;
}

/** Everything stateful the server holds, built by createServices and handed to whatever needs it. */
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
