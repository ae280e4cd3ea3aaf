import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const partners = pgTable('partners', {
  partnerId: text('partner_id').primaryKey(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  accessLevel: text('access_level').notNull(),
  issuer: text('issuer').notNull(),
  audience: text('audience'),
  jwksUri: text('jwks_uri'),
  jwks: jsonb('jwks'),
  emailClaim: text('email_claim').notNull().default('email'),
  providerIdPattern: text('provider_id_pattern'),
  webhookUrl: text('webhook_url'),
  /** Webhooks are signed with the secret itself, so it is stored encrypted rather than hashed. */
  webhookSecretEnc: text('webhook_secret_enc').notNull(),
  /** Opt-in: a NOTE_SIGNED webhook on sign and amend. Off by default because spec receivers answer 400 to an unknown status. */
  notifyNoteSigned: boolean('notify_note_signed').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  externalId: text('external_id').notNull().unique(),
  createdAt: createdAt(),
});

export const partnerOrganizations = pgTable(
  'partner_organizations',
  {
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.partnerId, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.organizationId] })],
);

export const providers = pgTable('providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** `email:<address>` for identities derived from a per-user token, `pid:<partner_id>:<provider_id>` otherwise. */
  identityKey: text('identity_key').notNull().unique(),
  email: text('email'),
  name: text('name').notNull(),
  specialty: text('specialty').notNull(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id),
  createdAt: createdAt(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
});

export const providerPartners = pgTable(
  'provider_partners',
  {
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'cascade' }),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.partnerId, { onDelete: 'cascade' }),
    partnerProviderId: text('partner_provider_id'),
    /** Per link: one partner disabling a shared provider must not cut off the provider's other partners. */
    disabled: boolean('disabled').notNull().default(false),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.partnerId] })],
);

export const userPreferences = pgTable('user_preferences', {
  providerId: uuid('provider_id')
    .primaryKey()
    .references(() => providers.id, { onDelete: 'cascade' }),
  preferences: jsonb('preferences').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash'),
  role: text('role').notNull(),
  name: text('name'),
  partnerId: text('partner_id').references(() => partners.partnerId, { onDelete: 'set null' }),
  providerId: uuid('provider_id').references(() => providers.id, { onDelete: 'set null' }),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: createdAt(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
});

export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  /** Null for a service-wide key; set to scope the key to one partner. */
  partnerId: text('partner_id').references(() => partners.partnerId, { onDelete: 'cascade' }),
  createdBy: text('created_by'),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

export const ambientSessions = pgTable(
  'ambient_sessions',
  {
    id: uuid('id').primaryKey(),
    noteId: uuid('note_id').notNull(),
    encounterId: uuid('encounter_id').notNull(),
    emrEncounterId: text('emr_encounter_id'),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.partnerId),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    status: text('status').notNull(),
    context: jsonb('context'),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
    audioMs: bigint('audio_ms', { mode: 'number' }).notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** While a finalisation runs: when its holder's lease lapses, so a crashed worker's session is finished by another. */
    finalisingUntil: timestamp('finalising_until', { withTimezone: true }),
    /** The finalisation run holding the lease; only it may renew or release it. */
    finalisingBy: text('finalising_by'),
  },
  (t) => [
    index('ambient_sessions_provider_idx').on(t.providerId, t.createdAt),
    index('ambient_sessions_partner_idx').on(t.partnerId, t.createdAt),
    index('ambient_sessions_encounter_idx').on(t.encounterId),
  ],
);

export const sessionTransitions = pgTable(
  'session_transitions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ambientSessions.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('session_transitions_session_idx').on(t.sessionId)],
);

export const recordings = pgTable(
  'recordings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ambientSessions.id, { onDelete: 'cascade' }),
    sequenceNumber: integer('sequence_number').notNull(),
    blobKey: text('blob_key').notNull(),
    startTime: timestamp('start_time', { withTimezone: true, precision: 6 }),
    /** Where this recording begins on the session's audio timeline. */
    sessionOffsetMs: bigint('session_offset_ms', { mode: 'number' }).notNull().default(0),
    durableBytes: bigint('durable_bytes', { mode: 'number' }).notNull().default(0),
    /** Audio (ms from the recording start) the live recogniser finished with; the final pass re-uses live segments up to here. */
    liveTranscriptMs: bigint('live_transcript_ms', { mode: 'number' }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recordings_session_seq_idx').on(t.sessionId, t.sequenceNumber)],
);

export const transcriptEntries = pgTable(
  'transcript_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ambientSessions.id, { onDelete: 'cascade' }),
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    /** Orders entries within the session and makes re-runs idempotent. */
    position: integer('position').notNull(),
    source: text('source').notNull(),
    text: text('text').notNull(),
    speaker: text('speaker').notNull().default('UNKNOWN'),
    langId: text('lang_id').notNull().default('en-US'),
    startOffsetMs: bigint('start_offset_ms', { mode: 'number' }).notNull(),
    endOffsetMs: bigint('end_offset_ms', { mode: 'number' }).notNull(),
    /** 0–1 recognition confidence of the entry, where the speech engine gave one (DESIGN §12). */
    confidence: real('confidence'),
    /** Per-word timings (session-timeline ms) and confidences, TranscriptWord[] from lib/transcript/confidence. */
    words: jsonb('words'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('transcript_entries_pos_idx').on(t.sessionId, t.source, t.position)],
);

export const sessionContent = pgTable('session_content', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => ambientSessions.id, { onDelete: 'cascade' }),
  summary: jsonb('summary').notNull(),
  structuredData: jsonb('structured_data').notNull(),
  engine: text('engine').notNull(),
  /** Sign-off state of the note: draft | signed | amended (amended = reopened after signing, editable until signed again). */
  noteStatus: text('note_status').notNull().default('draft'),
  /** When the note was last signed; kept while amended so the signed version stays dated. */
  signedAt: timestamp('signed_at', { withTimezone: true }),
  signedBy: uuid('signed_by').references(() => providers.id, { onDelete: 'set null' }),
  /** Sections refuse edits while locked: set by a sign, cleared by an amend (which sets note_status amended). */
  noteLocked: boolean('note_locked').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every clinician edit of a note section: who, when, the text before and after. */
export const noteSectionVersions = pgTable(
  'note_section_versions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ambientSessions.id, { onDelete: 'cascade' }),
    loincCode: text('loinc_code').notNull(),
    before: text('before').notNull(),
    after: text('after').notNull(),
    providerId: uuid('provider_id').references(() => providers.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_section_versions_session_idx').on(t.sessionId, t.at)],
);

/** Sign and amend events; a sign keeps the signed note as it was, an amend keeps its reason. */
export const noteSignoffs = pgTable(
  'note_signoffs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ambientSessions.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    reason: text('reason'),
    summary: jsonb('summary'),
    providerId: uuid('provider_id').references(() => providers.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_signoffs_session_idx').on(t.sessionId, t.at)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.partnerId, { onDelete: 'cascade' }),
    sessionId: uuid('session_id'),
    eventType: text('event_type').notNull(),
    /** One event per key: a retried finalisation enqueues nothing new. */
    eventKey: text('event_key').notNull().unique(),
    url: text('url').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastResponseCode: integer('last_response_code'),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** While status is delivering: when the holder's claim lapses, so a crashed worker's attempt is retried. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** attempts at the start of the current retry sequence; a redelivery restarts the schedule from here. */
    sequenceStart: integer('sequence_start').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_partner_idx').on(t.partnerId, t.createdAt),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    url: text('url'),
    requestHeaders: jsonb('request_headers').notNull(),
    responseCode: integer('response_code'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId)],
);

export const ckgTransactions = pgTable('ckg_transactions', {
  id: uuid('id').primaryKey().defaultRandom(),
  partnerId: text('partner_id')
    .notNull()
    .references(() => partners.partnerId, { onDelete: 'cascade' }),
  providerId: uuid('provider_id').references(() => providers.id),
  emrPatientId: text('emr_patient_id').notNull(),
  state: text('state').notNull(),
  bundle: jsonb('bundle').notNull(),
  error: jsonb('error'),
  createdAt: createdAt(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});

export const patientContext = pgTable(
  'patient_context',
  {
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.partnerId, { onDelete: 'cascade' }),
    emrPatientId: text('emr_patient_id').notNull(),
    medications: jsonb('medications').notNull(),
    problems: jsonb('problems').notNull(),
    allergies: jsonb('allergies').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.emrPatientId] })],
);

export const transcriptionSessions = pgTable('transcription_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  partnerId: text('partner_id')
    .notNull()
    .references(() => partners.partnerId, { onDelete: 'cascade' }),
  providerId: uuid('provider_id')
    .notNull()
    .references(() => providers.id),
  audioConfig: jsonb('audio_config').notNull(),
  createdAt: createdAt(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    partnerId: text('partner_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/** rate-limiter-flexible's Drizzle store: counters in the database, so every process sees the same limits. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});
