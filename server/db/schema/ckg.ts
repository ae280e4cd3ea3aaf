/** Clinical knowledge graph transactions and the patient context they carry. */
import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { partners, providers } from './tenancy';

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
