/** A session's generated note, every clinician edit of it, and its sign-off events. */
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { ambientSessions } from './sessions';
import { providers } from './tenancy';

export const sessionContent = pgTable('session_content', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => ambientSessions.id, { onDelete: 'cascade' }),
  summary: jsonb('summary').notNull(),
  structuredData: jsonb('structured_data').notNull(),
  engine: text('engine').notNull(),
  /** The note as the engine wrote it: a section whose content differs was edited since generation (issue 27 review). */
  generatedSummary: jsonb('generated_summary'),
  /** What the engine (or its guard) kept out of the note and why, for the review before signing (issue 27). */
  leftOut: jsonb('left_out'),
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
    /** The review the signer went through before signing (items and decisions, attestation); null for a sign without one. */
    review: jsonb('review'),
    providerId: uuid('provider_id').references(() => providers.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_signoffs_session_idx').on(t.sessionId, t.at)],
);
