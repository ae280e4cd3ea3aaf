/** Per-visit note settings chosen by the clinician: the note style and the pre-visit note (issue 31). */
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ambientSessions } from './sessions';

export const visitNoteSettings = pgTable('visit_note_settings', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => ambientSessions.id, { onDelete: 'cascade' }),
  /** A built-in style (SOAP, APSO, HP, PROGRESS) or `template:<id>` of the clinician's own; null: the clinician's default. */
  noteStyle: text('note_style'),
  /** One line the clinician wrote before the visit: context for the note, never presented as said in it. */
  previsitNote: text('previsit_note'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
