/**
 * The note's sign-off state, stored on session_content.note_status and reported additively on the
 * session content (`note_status`, `signed_at`). Kept in its own file so contracts on both sides
 * (sessions, FHIR, sign-off) can import it without cycles.
 */
import { z } from 'zod';

/** draft: never signed; signed: locked; amended: reopened after signing with a reason, editable until signed again. */
export const NOTE_STATUSES = ['draft', 'signed', 'amended'] as const;
export const NoteStatus = z.enum(NOTE_STATUSES);
export type NoteStatus = z.infer<typeof NoteStatus>;
