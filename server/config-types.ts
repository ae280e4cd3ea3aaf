import type { TrustedRange } from './http/client-address';

/** What loadConfig (server/config.ts) builds from the environment; every service is given its part of it. */
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
  /** How often an idle worker polls (JOB_POLL_SECONDS); jobs queued in this process wake it at once (server/jobs/send-job.ts). */
  jobPollSeconds: number;
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
  /** CHECK_RESPONSES: the route runner checks each answer against its contract (server/http/response-check.ts). */
  checkResponses: boolean;
  auth: AuthSettings;
}

/** Console sign-in (auth.ts). */
export interface AuthSettings {
  /** AUTH_SECRET; createServices fills in the one generated per data directory when it is unset. */
  secret?: string;
  sessionMaxAgeSeconds: number;
  oidc?: { issuer: string; clientId: string; clientSecret: string; name: string };
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
