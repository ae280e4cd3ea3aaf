/** Console users, their API keys, and each provider's note preferences. */
import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { partners, providers } from './tenancy';

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
