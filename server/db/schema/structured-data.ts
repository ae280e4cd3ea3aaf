/** Every clinician change of a note's structured data (issue 29 item 5): who, when, the item before and after. */
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ambientSessions } from './sessions';
import { providers } from './tenancy';

export const structuredDataVersions = pgTable(
  'structured_data_versions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => ambientSessions.id, { onDelete: 'cascade' }),
    /** diagnoses | medication_orders | allergies | service_orders */
    kind: text('kind').notNull(),
    /** add | edit | remove */
    action: text('action').notNull(),
    /** Position of the item in its list when the change was made (after an add: where it landed). */
    position: integer('position').notNull(),
    /** The item before the change; null for an add. */
    before: jsonb('before'),
    /** The item after the change; null for a remove. */
    after: jsonb('after'),
    providerId: uuid('provider_id').references(() => providers.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('structured_data_versions_session_idx').on(t.sessionId, t.at)],
);
