import path from 'node:path';
import { parseTrustedProxies, type TrustedRange } from './http/client-address';

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function int(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

/**
 * Speech engine settings as written in the environment (SPEECH_*). They are checked when the engine is built
 * (server/engines/speech/index.ts), on first use: a bad value fails the streams and finalisations that need
 * speech, not the start of a server that also serves everything else. The sherpa engine is the exception:
 * it is built at start-up, because a bad model directory is a broken installation, not a bad visit.
 */
export interface SpeechSettings {
  engine: string;
  poolSize?: string;
  lm?: string;
  /** SPEECH_VAD: the embedded engine's segmenter, silero or energy. */
  vad?: string;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: string;
  maxRetries?: string;
  /** SPEECH_MODEL_DIR, else DATA_DIR/models/speech: the sherpa engine's models. */
  modelDir: string;
  /** ONNX Runtime threads per decode of the sherpa engine. */
  threads?: string;
}

/** Notes engine settings (NOTES_*), checked when the engine is built, like SpeechSettings. */
export interface NotesSettings {
  engine: string;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** NOTES_TIMEOUT_MS: one chat-completions attempt's bound (default 120000). */
  timeoutMs?: string;
  /** NOTES_MAX_RETRIES: attempts after the first on 429, 5xx, a network error or unusable JSON (default 2). */
  maxRetries?: string;
  /** NOTES_CONCURRENCY: chat-completions requests this process has in flight at once (default 2); more wait their turn. */
  concurrency?: string;
  /** NOTES_FALLBACK: `embedded` writes the note with the embedded engine when the model fails (marked on the note); `none` (default) fails the session. */
  fallback?: string;
}

/** Where recordings are kept (README, Storage): S3-compatible storage when all four S3 settings are given. */
export interface BlobSettings {
  /** Files under this directory when S3 is not configured (AUDIO_DIR, else DATA_DIR/audio). */
  audioDir: string;
  s3: { endpoint?: string; bucket?: string; accessKeyId?: string; secretAccessKey?: string; region?: string; prefix?: string; forcePathStyle?: boolean };
}

/** Finalisation jobs (FINALISE_*): retries after the first attempt, backoff doubling from retryDelaySeconds. */
export interface FinaliseSettings {
  retryLimit: number;
  retryDelaySeconds: number;
  timeoutSeconds: number;
  /** How long a finalisation lease outlives its holder's last renewal (renewed every third of it). */
  leaseSeconds: number;
}

export function speechSettingsFromEnv(env: NodeJS.ProcessEnv | Record<string, string | undefined>): SpeechSettings {
  return {
    engine: env.SPEECH_ENGINE ?? 'embedded',
    poolSize: env.SPEECH_POOL_SIZE,
    lm: env.SPEECH_LM,
    vad: env.SPEECH_VAD,
    baseUrl: env.SPEECH_BASE_URL,
    apiKey: env.SPEECH_API_KEY,
    model: env.SPEECH_MODEL,
    timeoutMs: env.SPEECH_TIMEOUT_MS,
    maxRetries: env.SPEECH_MAX_RETRIES,
    modelDir: path.resolve(env.SPEECH_MODEL_DIR || path.join(env.DATA_DIR || './data', 'models', 'speech')),
    threads: env.SPEECH_THREADS,
  };
}

export function blobSettingsFromEnv(dataDir: string, env: NodeJS.ProcessEnv | Record<string, string | undefined>): BlobSettings {
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  return {
    audioDir: env.AUDIO_DIR ? path.resolve(env.AUDIO_DIR) : path.join(dataDir, 'audio'),
    s3: {
      endpoint: env.S3_ENDPOINT || undefined,
      bucket: env.S3_BUCKET || undefined,
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      region: env.S3_REGION || undefined,
      prefix: env.S3_PREFIX || undefined,
      forcePathStyle: pathStyle ? !['0', 'false', 'no'].includes(pathStyle.toLowerCase()) : undefined,
    },
  };
}

function nonNegativeInt(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** A positive duration such as `30m`, `90s`, `1h` or `500ms`; a bare number is seconds. */
function duration(value: string | undefined, fallbackMs: number): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value ?? '');
  const ms = m ? Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'] : NaN;
  return ms > 0 ? ms : fallbackMs;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Connections in the PostgreSQL pool of each process (PG_POOL_MAX). */
  pgPoolMax: number;
  /**
   * SECRET_KEY: seals partner secrets and keys recording URLs. Every process of a scaled-out deployment
   * needs the same one; without it, each data directory generates its own.
   */
  secretKey?: string;
  /** SERVICE_SIGNING_JWK: the private JWK that signs service tokens, shared by every web process. */
  serviceSigningJwk?: string;
  /** Where `next build` writes (NEXT_DIST_DIR, relative to the project). */
  nextDistDir: string;
  /** ADMIN_URL: where the admin CLI reaches a running server that holds the data directory. */
  adminUrl?: string;
  publicBaseUrl: string;
  adminApiKey?: string;
  webhookAllowPrivate: boolean;
  webhookReceiverSecret?: string;
  webhookTimeoutMs: number;
  /** Delays in seconds between attempts; the outbox gives up after the last. */
  webhookRetrySchedule: number[];
  speech: SpeechSettings;
  notes: NotesSettings;
  blob: BlobSettings;
  finalise: FinaliseSettings;
  /**
   * Abandoned visits (docs/streaming.md): a session with stored audio, no open stream and no EOF for afterMs
   * (ABANDONED_AFTER) is finalised from what was stored; processes with job workers look every sweepMs
   * (ABANDONED_SWEEP_INTERVAL).
   */
  abandoned: { afterMs: number; sweepMs: number };
  workers: number;
  bodyLimitBytes: number;
  /** Node HTTP server limits (README, Security): see server/http/server-options.ts. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  /** When set, /metrics requires it as a bearer token; when not, /metrics is served only on a loopback HOST. */
  metricsToken?: string;
  serviceTokenTtlSeconds: number;
  logLevel: string;
  ws: {
    maxFrameBytes: number;
    idleTimeoutMs: number;
    maxSessionSeconds: number;
    /** How far ahead of real time a client may send audio before it is refused. */
    maxAheadMs: number;
    /**
     * How long the end of a stream waits for the live recogniser to finish what it was fed. A reconnect
     * waits for this too, so it stays short; what the live pass has not reached then is decoded by the final pass.
     */
    liveEndWaitMs: number;
    /** Concurrent /ws/ambient + /ws/transcribe streams per provider and per partner (0: no cap). */
    streamsPerProvider: number;
    streamsPerPartner: number;
  };
  /**
   * Server-Sent Events status streams (README, Security): concurrent streams per provider, per partner and in
   * the whole process (0: no cap), how long one lasts before the server ends it and the client reconnects,
   * and how often a web process on PostgreSQL looks for streams of providers disabled in another process.
   */
  sse: { streamsPerProvider: number; streamsPerPartner: number; streamsMax: number; maxLifetimeMs: number; disabledSweepMs: number };
  /**
   * The status bus and cache (README, Security): on PostgreSQL the LISTEN connection has TCP keepalive from
   * keepAliveMs of quiet and sends itself a NOTIFY every heartbeatMs; one not heard back within two more beats
   * marks the bus not live (polls read the database) and reconnects. A cached status that can still change is
   * answered for at most cacheTtlMs.
   */
  statusBus: { keepAliveMs: number; heartbeatMs: number; cacheTtlMs: number };
  minSpeechMs: number;
  /**
   * Note history (README, Security): a section edit by the provider whose version of that section is the newest
   * and at most burstMinutes old updates that version (one row per editing burst); each section keeps its
   * newest versionsPerSection versions, plus every version a signature covered.
   */
  noteHistory: { burstMinutes: number; versionsPerSection: number };
  rateLimitAuthPerMinute: number;
  /** TRUSTED_PROXIES (README, Security): the proxies whose X-Forwarded-For names the client (none by default). */
  trustedProxies: TrustedRange[];
  /**
   * Console password sign-in limits (failures, kept in the database): per account and address before an
   * exponential back-off from blockBaseSeconds capped at maxBlockSeconds; per account (all addresses, except
   * those the account signed in from before) and per address (all accounts) within windowSeconds.
   */
  signIn: { perAccountAddress: number; perAccount: number; perAddress: number; windowSeconds: number; blockBaseSeconds: number; maxBlockSeconds: number };
  hccModel: 'V28' | 'V24';
  /** Minimum time between JWKS refetches when a token names an unknown kid. */
  jwksCooldownMs: number;
  /** Official code-set files (CODESETS_DIR, relative to the project); used when none were imported into the database. */
  codesetsDir?: string;
  dev: boolean;
  /** Validate every FHIR export against FHIR R4 before answering (a development assertion; costs ~1 s and tens of MB once). */
  fhirValidate: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 3000);
  const host = env.HOST || '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    pgPoolMax: Math.max(1, int(env.PG_POOL_MAX, 10)),
    secretKey: env.SECRET_KEY || undefined,
    serviceSigningJwk: env.SERVICE_SIGNING_JWK || undefined,
    nextDistDir: env.NEXT_DIST_DIR || '.next',
    adminUrl: env.ADMIN_URL || undefined,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    adminApiKey: env.ADMIN_API_KEY || undefined,
    webhookAllowPrivate: bool(env.WEBHOOK_ALLOW_PRIVATE, false),
    webhookReceiverSecret: env.WEBHOOK_RECEIVER_SECRET || undefined,
    webhookTimeoutMs: int(env.WEBHOOK_TIMEOUT_MS, 10_000),
    webhookRetrySchedule: (env.WEBHOOK_RETRY_SCHEDULE || '10,30,60,300,900,1800,3600,7200,14400,28800,43200')
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isFinite(n) && n >= 0),
    speech: speechSettingsFromEnv(env),
    notes: {
      engine: env.NOTES_ENGINE ?? 'embedded',
      baseUrl: env.NOTES_BASE_URL,
      apiKey: env.NOTES_API_KEY,
      model: env.NOTES_MODEL,
      timeoutMs: env.NOTES_TIMEOUT_MS,
      maxRetries: env.NOTES_MAX_RETRIES,
      concurrency: env.NOTES_CONCURRENCY,
      fallback: env.NOTES_FALLBACK,
    },
    blob: blobSettingsFromEnv(dataDir, env),
    finalise: {
      retryLimit: nonNegativeInt(env.FINALISE_RETRY_LIMIT, 3),
      retryDelaySeconds: nonNegativeInt(env.FINALISE_RETRY_DELAY_SECONDS, 15),
      timeoutSeconds: nonNegativeInt(env.FINALISE_TIMEOUT_SECONDS, 30 * 60),
      leaseSeconds: Number(env.FINALISE_LEASE_SECONDS) > 0 ? Number(env.FINALISE_LEASE_SECONDS) : 60,
    },
    abandoned: { afterMs: duration(env.ABANDONED_AFTER, 30 * 60_000), sweepMs: duration(env.ABANDONED_SWEEP_INTERVAL, 60_000) },
    workers: int(env.WORKERS, 1),
    bodyLimitBytes: int(env.BODY_LIMIT_BYTES, 1024 * 1024),
    http: {
      headersTimeoutMs: int(env.HTTP_HEADERS_TIMEOUT_MS, 30_000),
      requestTimeoutMs: int(env.HTTP_REQUEST_TIMEOUT_MS, 120_000),
      keepAliveTimeoutMs: int(env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 65_000),
    },
    metricsToken: env.METRICS_TOKEN || undefined,
    serviceTokenTtlSeconds: 3600,
    logLevel: env.LOG_LEVEL || 'info',
    ws: {
      maxFrameBytes: int(env.WS_MAX_FRAME_BYTES, 256 * 1024),
      idleTimeoutMs: int(env.WS_IDLE_TIMEOUT_MS, 30_000),
      maxSessionSeconds: int(env.WS_MAX_SESSION_SECONDS, 3 * 3600),
      maxAheadMs: int(env.WS_MAX_AHEAD_MS, 30_000),
      liveEndWaitMs: int(env.WS_LIVE_END_WAIT_MS, 30_000),
      streamsPerProvider: Math.max(0, int(env.STREAMS_PER_PROVIDER, 4)),
      streamsPerPartner: Math.max(0, int(env.STREAMS_PER_PARTNER, 200)),
    },
    sse: {
      streamsPerProvider: Math.max(0, int(env.SSE_STREAMS_PER_PROVIDER, 10)),
      streamsPerPartner: Math.max(0, int(env.SSE_STREAMS_PER_PARTNER, 500)),
      streamsMax: Math.max(0, int(env.SSE_STREAMS_MAX, 1000)),
      maxLifetimeMs: Math.max(0, int(env.SSE_MAX_LIFETIME_MS, 5 * 60_000)),
      disabledSweepMs: Math.max(0, int(env.DISABLED_STREAMS_SWEEP_MS, 10_000)),
    },
    statusBus: {
      keepAliveMs: Math.max(1000, int(env.STATUS_LISTEN_KEEPALIVE_MS, 10_000)),
      heartbeatMs: Math.max(100, int(env.STATUS_HEARTBEAT_MS, 5_000)),
      cacheTtlMs: Math.max(0, int(env.STATUS_CACHE_TTL_MS, 30_000)),
    },
    minSpeechMs: int(env.MIN_SPEECH_MS, 1500),
    noteHistory: {
      burstMinutes: Math.max(0, int(env.NOTE_HISTORY_BURST_MINUTES, 5)),
      versionsPerSection: Math.max(1, int(env.NOTE_HISTORY_VERSIONS_PER_SECTION, 50)),
    },
    rateLimitAuthPerMinute: int(env.RATE_LIMIT_AUTH_PER_MINUTE, 120),
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    signIn: {
      perAccountAddress: Math.max(1, int(env.SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS, 5)),
      perAccount: Math.max(1, int(env.SIGNIN_FAILURES_PER_ACCOUNT, 20)),
      perAddress: Math.max(1, int(env.SIGNIN_FAILURES_PER_ADDRESS, 50)),
      windowSeconds: Math.max(1, int(env.SIGNIN_WINDOW_SECONDS, 900)),
      blockBaseSeconds: Math.max(1, int(env.SIGNIN_BLOCK_BASE_SECONDS, 30)),
      maxBlockSeconds: Math.max(1, int(env.SIGNIN_MAX_BLOCK_SECONDS, 900)),
    },
    hccModel: env.HCC_MODEL === 'V24' ? 'V24' : 'V28',
    jwksCooldownMs: int(env.JWKS_COOLDOWN_MS, 30_000),
    codesetsDir: env.CODESETS_DIR || undefined,
    dev: env.NODE_ENV === 'development',
    fhirValidate: bool(env.FHIR_VALIDATE, env.NODE_ENV !== 'production'),
  };
}

/** The admin CLI's configuration: the server's, but quieter (warnings only) unless LOG_LEVEL says otherwise. */
export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig({ LOG_LEVEL: 'warn', ...env });
}
