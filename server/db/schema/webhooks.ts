/** Webhook deliveries to partners and each attempt at one. */
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { partners } from './tenancy';

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
