import path from 'node:path';

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function int(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  publicBaseUrl: string;
  adminApiKey?: string;
  webhookAllowPrivate: boolean;
  webhookReceiverSecret?: string;
  webhookTimeoutMs: number;
  /** Delays in seconds between attempts; the outbox gives up after the last. */
  webhookRetrySchedule: number[];
  speechEngine: string;
  notesEngine: string;
  workers: number;
  bodyLimitBytes: number;
  /** Node HTTP server limits (README, Security): see server/http/server-options.ts. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  /** When set, /metrics requires it as a bearer token; when not, /metrics is served only on a loopback HOST. */
  metricsToken?: string;
  serviceTokenTtlSeconds: number;
  signedUrlTtlSeconds: number;
  logLevel: string;
  ws: {
    maxFrameBytes: number;
    idleTimeoutMs: number;
    maxSessionSeconds: number;
    /** How far ahead of real time a client may send audio before it is refused. */
    maxAheadMs: number;
    /** Concurrent /ws/ambient + /ws/transcribe streams per provider and per partner (0: no cap). */
    streamsPerProvider: number;
    streamsPerPartner: number;
  };
  minSpeechMs: number;
  rateLimitAuthPerMinute: number;
  /**
   * Console password sign-in limits (failures, kept in the database): per account and address before an
   * exponential back-off from blockBaseSeconds capped at maxBlockSeconds; per account (all addresses, except
   * those the account signed in from before) and per address (all accounts) within windowSeconds.
   */
  signIn: { perAccountAddress: number; perAccount: number; perAddress: number; windowSeconds: number; blockBaseSeconds: number; maxBlockSeconds: number };
  hccModel: 'V28' | 'V24';
  /** Minimum time between JWKS refetches when a token names an unknown kid. */
  jwksCooldownMs: number;
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
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    adminApiKey: env.ADMIN_API_KEY || undefined,
    webhookAllowPrivate: bool(env.WEBHOOK_ALLOW_PRIVATE, false),
    webhookReceiverSecret: env.WEBHOOK_RECEIVER_SECRET || undefined,
    webhookTimeoutMs: int(env.WEBHOOK_TIMEOUT_MS, 10_000),
    webhookRetrySchedule: (env.WEBHOOK_RETRY_SCHEDULE || '10,30,60,300,900,1800,3600,7200,14400,28800,43200')
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isFinite(n) && n >= 0),
    speechEngine: env.SPEECH_ENGINE || 'embedded',
    notesEngine: env.NOTES_ENGINE || 'embedded',
    workers: int(env.WORKERS, 1),
    bodyLimitBytes: int(env.BODY_LIMIT_BYTES, 1024 * 1024),
    http: {
      headersTimeoutMs: int(env.HTTP_HEADERS_TIMEOUT_MS, 30_000),
      requestTimeoutMs: int(env.HTTP_REQUEST_TIMEOUT_MS, 120_000),
      keepAliveTimeoutMs: int(env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 65_000),
    },
    metricsToken: env.METRICS_TOKEN || undefined,
    serviceTokenTtlSeconds: 3600,
    signedUrlTtlSeconds: int(env.SIGNED_URL_TTL_SECONDS, 900),
    logLevel: env.LOG_LEVEL || 'info',
    ws: {
      maxFrameBytes: int(env.WS_MAX_FRAME_BYTES, 256 * 1024),
      idleTimeoutMs: int(env.WS_IDLE_TIMEOUT_MS, 30_000),
      maxSessionSeconds: int(env.WS_MAX_SESSION_SECONDS, 3 * 3600),
      maxAheadMs: int(env.WS_MAX_AHEAD_MS, 30_000),
      streamsPerProvider: Math.max(0, int(env.STREAMS_PER_PROVIDER, 4)),
      streamsPerPartner: Math.max(0, int(env.STREAMS_PER_PARTNER, 200)),
    },
    minSpeechMs: int(env.MIN_SPEECH_MS, 1500),
    rateLimitAuthPerMinute: int(env.RATE_LIMIT_AUTH_PER_MINUTE, 120),
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
