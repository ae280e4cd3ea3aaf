/** Open-stream leases for the concurrent-stream caps. */
import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per open stream and cap it counts against ('provider:<id>', 'partner:<id>'), so every web process
 * counts the same streams. A holder (one process) renews its rows while it lives; a killed process's rows
 * lapse at expires_at and stop counting. Counters keyed by cap, like rate_limits: no tenant reads them.
 */
export const streamSlots = pgTable(
  'stream_slots',
  {
    slotId: text('slot_id').notNull(),
    capKey: text('cap_key').notNull(),
    holder: text('holder').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.slotId, t.capKey] }), index('stream_slots_cap_key_idx').on(t.capKey, t.expiresAt)],
);
