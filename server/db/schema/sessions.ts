/** Ambient sessions, their status transitions, recordings and transcript entries. */
import { bigint, boolean, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { partners, providers } from './tenancy';

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
    /**
     * Why this part began after a stretch nothing recorded (START_TIME's reason: PART_START_REASONS in
     * lib/contracts/stream-protocol.ts); null when the client gave none. The cause of the recording gap before it.
     */
    startReason: text('start_reason'),
    /** Where this recording begins on the session's audio timeline. */
    sessionOffsetMs: bigint('session_offset_ms', { mode: 'number' }).notNull().default(0),
    durableBytes: bigint('durable_bytes', { mode: 'number' }).notNull().default(0),
    /** Audio (ms from the recording start) the live recogniser finished with; the final pass re-uses live segments up to here. */
    liveTranscriptMs: bigint('live_transcript_ms', { mode: 'number' }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** When durable_bytes last grew (audio stored and ACKed): an open stream's last sign of life, for the abandoned-visit sweep. */
    durableAt: timestamp('durable_at', { withTimezone: true }),
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
    /** Decoded without the session's vocabulary, which could not be built (issue 30 item 6). */
    unbiased: boolean('unbiased').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('transcript_entries_pos_idx').on(t.sessionId, t.source, t.position)],
);
