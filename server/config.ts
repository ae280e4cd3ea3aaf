import path from 'node:path';
import { z } from 'zod';
import { parseTrustedProxies } from './http/client-address';
import type { BlobSettings, Config, FinaliseSettings, NotesSettings, SpeechSettings } from './config-types';
import { bool, ConfigError, describeIssues, duration, httpUrl, int, numberList, oneOf, parsedBy, positiveNumber, postgresUrl, text } from './config-kinds';

export { ConfigError } from './config-kinds';
export type { AuthSettings, BlobSettings, Config, FinaliseSettings, NotesSettings, SpeechSettings } from './config-types';

/**
 * Every environment variable the service reads: its form, its default and what it does. loadConfig checks the
 * whole environment against it at start-up, so `PORT=abc` stops the process with `PORT must be an integer from
 * 0 to 65535 (got "abc")` instead of quietly serving on 3000. README's configuration table lists the same
 * names (config.test.ts compares them). An empty value counts as unset. A default that depends on another
 * variable is computed in loadConfig and described here.
 */
export const ENV_SCHEMA = z.object({
  PORT: int(0, 65535).default(3000).describe('port the server listens on (0: any free port)'),
  HOST: text().default('127.0.0.1').describe('address the server listens on'),
  DATA_DIR: text().default('./data').describe('PGlite database, audio blobs, generated keys and secrets'),
  DATABASE_URL: postgresUrl().optional().describe('PostgreSQL to use instead of PGlite (required for more than one process)'),
  PG_POOL_MAX: int(1).default(10).describe('PostgreSQL connections per process'),
  SECRET_KEY: text().optional().describe('seals partner secrets and keys recording URLs; generated into DATA_DIR/keys when unset'),
  SERVICE_SIGNING_JWK: text().optional().describe('private JWK that signs service tokens; generated into DATA_DIR/keys when unset'),
  NEXT_DIST_DIR: text().default('.next').describe('where `next build` writes, relative to the project'),
  ADMIN_URL: httpUrl().optional().describe('where the admin CLI reaches a running server (default http://HOST:PORT)'),
  PUBLIC_BASE_URL: httpUrl().optional().describe('base for webhook _links and signed audio URLs (default http://HOST:PORT)'),
  ADMIN_API_KEY: text().optional().describe('accepted as a service-admin key on /api/admin/v1/*'),
  WEBHOOK_ALLOW_PRIVATE: bool().default(false).describe('allow loopback/private addresses for every server-side fetch'),
  WEBHOOK_RECEIVER_SECRET: text().optional().describe('secret the reference receiver POST /webhooks/notification verifies with'),
  WEBHOOK_TIMEOUT_MS: int(1).default(10_000).describe('one webhook delivery attempt is abandoned after this'),
  WEBHOOK_RETRY_SCHEDULE: numberList().default([10, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 43200]).describe('seconds between delivery attempts'),
  SPEECH_ENGINE: oneOf(['embedded', 'openai', 'sherpa', 'none']).default('embedded').describe('speech recogniser'),
  SPEECH_POOL_SIZE: int(1).optional().describe('decoder threads of the embedded engine (default: cores)'),
  SPEECH_LM: oneOf(['lean', 'clinical', 'stock']).optional().describe('language model of the embedded engine: lean (the default, from model/default.json: clinical and en-us merged offline), clinical (the two interpolated at decode time, about twice the CPU) or stock (en-us alone)'),
  SPEECH_VAD: oneOf(['silero', 'energy']).optional().describe('segmenter of the embedded engine (default silero)'),
  SPEECH_BASE_URL: httpUrl().optional().describe('OpenAI-compatible speech API (SPEECH_ENGINE=openai)'),
  SPEECH_API_KEY: text().optional().describe('key for SPEECH_BASE_URL'),
  SPEECH_MODEL: text().optional().describe('model name at SPEECH_BASE_URL'),
  SPEECH_TIMEOUT_MS: int(1).optional().describe('per-request timeout of the OpenAI-compatible speech engine'),
  SPEECH_MAX_RETRIES: int(0).optional().describe('retries of the OpenAI-compatible speech engine'),
  SPEECH_MODEL_DIR: text().optional().describe('model directory of the sherpa engine (default DATA_DIR/models/speech)'),
  SPEECH_THREADS: int(1).optional().describe('ONNX Runtime threads per decode of the sherpa engine'),
  NOTES_ENGINE: oneOf(['embedded', 'openai']).default('embedded').describe('note generator'),
  NOTES_BASE_URL: httpUrl().optional().describe('OpenAI-compatible chat API (NOTES_ENGINE=openai)'),
  NOTES_API_KEY: text().optional().describe('key for NOTES_BASE_URL'),
  NOTES_MODEL: text().optional().describe('model name at NOTES_BASE_URL'),
  NOTES_TIMEOUT_MS: int(1).optional().describe('one chat-completions attempt is abandoned after this (default 120000)'),
  NOTES_MAX_RETRIES: int(0).optional().describe('chat-completions attempts after the first (default 2)'),
  NOTES_CONCURRENCY: int(1).optional().describe('chat-completions requests in flight per process (default 2)'),
  NOTES_FALLBACK: oneOf(['embedded', 'none']).optional().describe('embedded: write the note with the embedded engine when the model fails'),
  AUDIO_DIR: text().optional().describe('recordings when S3 is not configured (default DATA_DIR/audio)'),
  S3_ENDPOINT: httpUrl().optional().describe('S3-compatible storage for recordings, with the three below'),
  S3_BUCKET: text().optional().describe('S3 bucket'),
  S3_ACCESS_KEY_ID: text().optional().describe('S3 access key id'),
  S3_SECRET_ACCESS_KEY: text().optional().describe('S3 secret access key'),
  S3_REGION: text().optional().describe('S3 region'),
  S3_PREFIX: text().optional().describe('key prefix inside the bucket'),
  S3_FORCE_PATH_STYLE: bool().optional().describe('path-style S3 URLs (most self-hosted stores)'),
  FINALISE_RETRY_LIMIT: int(0).default(3).describe('finalisation retries after the first attempt'),
  FINALISE_RETRY_DELAY_SECONDS: int(0).default(15).describe('first retry delay, doubling'),
  FINALISE_TIMEOUT_SECONDS: int(0).default(30 * 60).describe('a finalisation job is abandoned after this'),
  FINALISE_LEASE_SECONDS: positiveNumber().default(60).describe('how long a finalisation lease outlives its holder'),
  ABANDONED_AFTER: duration().default(30 * 60_000).describe('a visit whose stream is gone this long is finalised from its stored audio'),
  ABANDONED_SWEEP_INTERVAL: duration().default(60_000).describe('how often processes with workers look for abandoned visits'),
  WORKERS: int(0).default(1).describe('job workers inside the web process (0: web only)'),
  JOB_POLL_SECONDS: positiveNumber().optional().describe('how often an idle job worker looks for due jobs (default 10 with PGlite, where every job is queued by this process, which wakes its workers; 1 with DATABASE_URL, where another process may queue it)'),
  BODY_LIMIT_BYTES: int(1).default(1024 * 1024).describe('request bodies above this are 413'),
  HTTP_HEADERS_TIMEOUT_MS: int(0).default(30_000).describe('Node HTTP headers timeout'),
  HTTP_REQUEST_TIMEOUT_MS: int(0).default(120_000).describe('Node HTTP request timeout'),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(0).default(65_000).describe('Node HTTP keep-alive timeout'),
  METRICS_TOKEN: text().optional().describe('bearer token /metrics requires; unset: /metrics only on a loopback HOST'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level'),
  WS_MAX_FRAME_BYTES: int(1).default(256 * 1024).describe('largest WebSocket frame accepted'),
  WS_IDLE_TIMEOUT_MS: int(1).default(30_000).describe('a stream with no frame for this long is closed'),
  WS_MAX_SESSION_SECONDS: int(1).default(3 * 3600).describe('longest stream'),
  WS_MAX_AHEAD_MS: int(0).default(30_000).describe('how far ahead of real time a client may send audio'),
  WS_LIVE_END_WAIT_MS: int(0).default(30_000).describe('how long the end of a stream waits for the live recogniser'),
  STREAMS_PER_PROVIDER: int(0).default(4).describe('open streams per provider (0: no cap)'),
  STREAMS_PER_PARTNER: int(0).default(200).describe('open streams per partner (0: no cap)'),
  SSE_STREAMS_PER_PROVIDER: int(0).default(10).describe('open status event streams per provider (0: no cap)'),
  SSE_STREAMS_PER_PARTNER: int(0).default(500).describe('open status event streams per partner (0: no cap)'),
  SSE_STREAMS_MAX: int(0).default(1000).describe('open status event streams per web process (0: no cap)'),
  SSE_MAX_LIFETIME_MS: int(0).default(5 * 60_000).describe('a status event stream is ended after this'),
  DISABLED_STREAMS_SWEEP_MS: int(0).default(10_000).describe('how often streams of providers disabled elsewhere are ended (0: never)'),
  STATUS_LISTEN_KEEPALIVE_MS: int(1000).default(10_000).describe('TCP keepalive of the status listener after this much quiet'),
  STATUS_HEARTBEAT_MS: int(100).default(5_000).describe('self-NOTIFY interval of the status listener'),
  STATUS_CACHE_TTL_MS: int(0).default(30_000).describe('how long a cached status that can still change is answered'),
  MIN_SPEECH_MS: int(0).default(1500).describe('less speech than this makes no note'),
  NOTE_HISTORY_BURST_MINUTES: int(0).default(5).describe('edits of a section this close together are one history version'),
  NOTE_HISTORY_VERSIONS_PER_SECTION: int(1).default(50).describe('history versions kept per section besides signed ones'),
  RATE_LIMIT_AUTH_PER_MINUTE: int(0).default(120).describe('register and login requests per client address'),
  TRUSTED_PROXIES: parsedBy(parseTrustedProxies).default([]).describe('comma-separated CIDR ranges of proxies whose X-Forwarded-For names the client'),
  SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: int(1).default(5).describe('console sign-in failures per account and address before back-off'),
  SIGNIN_FAILURES_PER_ACCOUNT: int(1).default(20).describe('console sign-in failures per account within the window'),
  SIGNIN_FAILURES_PER_ADDRESS: int(1).default(50).describe('console sign-in failures per address within the window'),
  SIGNIN_WINDOW_SECONDS: int(1).default(900).describe('window of the sign-in failure counts'),
  SIGNIN_BLOCK_BASE_SECONDS: int(1).default(30).describe('first sign-in back-off, doubling'),
  SIGNIN_MAX_BLOCK_SECONDS: int(1).default(900).describe('longest sign-in back-off'),
  HCC_MODEL: oneOf(['V28', 'V24']).default('V28').describe('CMS-HCC model for diagnosis categories'),
  JWKS_COOLDOWN_MS: int(0).default(30_000).describe('minimum time between partner JWKS refetches'),
  CODESETS_DIR: text().optional().describe('official code-set files to use instead of the built-in subset'),
  NODE_ENV: text().optional().describe('development turns on Next development mode; production turns off FHIR_VALIDATE by default'),
  FHIR_VALIDATE: bool().optional().describe('validate every FHIR export against FHIR R4 (default: true unless NODE_ENV=production)'),
  CHECK_RESPONSES: bool().default(false).describe('check every API answer against its route contract and answer 500 naming a mismatch (the test harness sets it)'),
  AUTH_SECRET: text().optional().describe('signs console session cookies; generated into DATA_DIR/keys when unset'),
  AUTH_SESSION_MAX_AGE: int(1).default(8 * 3600).describe('console sign-in lifetime in seconds'),
  AUTH_OIDC_ISSUER: httpUrl().optional().describe('OIDC issuer for console sign-in, with the client id and secret'),
  AUTH_OIDC_CLIENT_ID: text().optional().describe('OIDC client id'),
  AUTH_OIDC_CLIENT_SECRET: text().optional().describe('OIDC client secret'),
  AUTH_OIDC_NAME: text().default('Single sign-on').describe('label of the OIDC sign-in button'),
  AUTH_URL: httpUrl().optional().describe("console sign-in's public URL (read by next-auth itself), so the OIDC redirect URI is the registered one"),
});

export type Env = z.output<typeof ENV_SCHEMA>;

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




/** The environment without its empty values, which count as unset. */
function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
}

/** Checks the environment against ENV_SCHEMA; throws a ConfigError naming each bad variable and its form. */
export function parseEnv(env: Record<string, string | undefined>): Env {
  const given = withoutEmpty(env);
  const parsed = ENV_SCHEMA.safeParse(given);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, given));
  return parsed.data;
}

export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env): Config {
  const e = parseEnv(env);
  const given = withoutEmpty(env);
  const dataDir = path.resolve(e.DATA_DIR);
  const { AUTH_OIDC_ISSUER: issuer, AUTH_OIDC_CLIENT_ID: clientId, AUTH_OIDC_CLIENT_SECRET: clientSecret } = e;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    pgPoolMax: e.PG_POOL_MAX,
    secretKey: e.SECRET_KEY,
    serviceSigningJwk: e.SERVICE_SIGNING_JWK,
    nextDistDir: e.NEXT_DIST_DIR,
    adminUrl: e.ADMIN_URL,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    adminApiKey: e.ADMIN_API_KEY,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    webhookReceiverSecret: e.WEBHOOK_RECEIVER_SECRET,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookRetrySchedule: e.WEBHOOK_RETRY_SCHEDULE,
    speech: speechSettingsFromEnv(given),
    notes: {
      engine: e.NOTES_ENGINE,
      baseUrl: e.NOTES_BASE_URL,
      apiKey: e.NOTES_API_KEY,
      model: e.NOTES_MODEL,
      // Checked above; the engine parses them again where it is built (server/engines/notes).
      timeoutMs: given.NOTES_TIMEOUT_MS,
      maxRetries: given.NOTES_MAX_RETRIES,
      concurrency: given.NOTES_CONCURRENCY,
      fallback: given.NOTES_FALLBACK,
    },
    blob: blobSettingsFromEnv(dataDir, given),
    finalise: {
      retryLimit: e.FINALISE_RETRY_LIMIT,
      retryDelaySeconds: e.FINALISE_RETRY_DELAY_SECONDS,
      timeoutSeconds: e.FINALISE_TIMEOUT_SECONDS,
      leaseSeconds: e.FINALISE_LEASE_SECONDS,
    },
    abandoned: { afterMs: e.ABANDONED_AFTER, sweepMs: e.ABANDONED_SWEEP_INTERVAL },
    workers: e.WORKERS,
    jobPollSeconds: e.JOB_POLL_SECONDS ?? (e.DATABASE_URL ? 1 : 10),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    http: { headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS },
    metricsToken: e.METRICS_TOKEN,
    serviceTokenTtlSeconds: 3600,
    logLevel: e.LOG_LEVEL,
    ws: {
      maxFrameBytes: e.WS_MAX_FRAME_BYTES,
      idleTimeoutMs: e.WS_IDLE_TIMEOUT_MS,
      maxSessionSeconds: e.WS_MAX_SESSION_SECONDS,
      maxAheadMs: e.WS_MAX_AHEAD_MS,
      liveEndWaitMs: e.WS_LIVE_END_WAIT_MS,
      streamsPerProvider: e.STREAMS_PER_PROVIDER,
      streamsPerPartner: e.STREAMS_PER_PARTNER,
    },
    sse: {
      streamsPerProvider: e.SSE_STREAMS_PER_PROVIDER,
      streamsPerPartner: e.SSE_STREAMS_PER_PARTNER,
      streamsMax: e.SSE_STREAMS_MAX,
      maxLifetimeMs: e.SSE_MAX_LIFETIME_MS,
      disabledSweepMs: e.DISABLED_STREAMS_SWEEP_MS,
    },
    statusBus: { keepAliveMs: e.STATUS_LISTEN_KEEPALIVE_MS, heartbeatMs: e.STATUS_HEARTBEAT_MS, cacheTtlMs: e.STATUS_CACHE_TTL_MS },
    minSpeechMs: e.MIN_SPEECH_MS,
    noteHistory: { burstMinutes: e.NOTE_HISTORY_BURST_MINUTES, versionsPerSection: e.NOTE_HISTORY_VERSIONS_PER_SECTION },
    rateLimitAuthPerMinute: e.RATE_LIMIT_AUTH_PER_MINUTE,
    trustedProxies: e.TRUSTED_PROXIES,
    signIn: {
      perAccountAddress: e.SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS,
      perAccount: e.SIGNIN_FAILURES_PER_ACCOUNT,
      perAddress: e.SIGNIN_FAILURES_PER_ADDRESS,
      windowSeconds: e.SIGNIN_WINDOW_SECONDS,
      blockBaseSeconds: e.SIGNIN_BLOCK_BASE_SECONDS,
      maxBlockSeconds: e.SIGNIN_MAX_BLOCK_SECONDS,
    },
    hccModel: e.HCC_MODEL,
    jwksCooldownMs: e.JWKS_COOLDOWN_MS,
    codesetsDir: e.CODESETS_DIR,
    dev: e.NODE_ENV === 'development',
    fhirValidate: e.FHIR_VALIDATE ?? e.NODE_ENV !== 'production',
    checkResponses: e.CHECK_RESPONSES,
    auth: {
      secret: e.AUTH_SECRET,
      sessionMaxAgeSeconds: e.AUTH_SESSION_MAX_AGE,
      oidc: issuer && clientId && clientSecret ? { issuer, clientId, clientSecret, name: e.AUTH_OIDC_NAME } : undefined,
    },
  };
}

/** The admin CLI's configuration: the server's, but quieter (warnings only) unless LOG_LEVEL says otherwise. */
export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig({ LOG_LEVEL: 'warn', ...env });
}
