/** Dictation (/ws/transcribe) sessions. */
import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { partners, providers } from './tenancy';

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
