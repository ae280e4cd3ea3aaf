/**
 * Contracts of the routes the clinician web app adds to the v1 API: the day's sessions of the signed-in
 * provider, editing a note section, and the service token minted for a console session.
 */
import { z } from 'zod';
import { CalendarDate } from './sessions';
import { SESSION_STATUSES } from './session-status';
import { NoteStatus } from './note-status';

export const SessionListQuery = z.object({
  // Bounded so the day's UTC window, shifted by up to 14 h, stays inside what the database can hold:
  // 9999-12-31 at UTC-14 ended in year 10000 and answered 500 (issue #12).
  date: CalendarDate.refine((d) => d >= '1900-01-01' && d <= '9999-12-30', 'must be between 1900-01-01 and 9999-12-30'),
  /**
   * The caller's offset from UTC in minutes east (UTC+2 → 120), so "today" is the clinician's local day.
   * Defaults to 0 (a UTC day).
   */
  utc_offset_minutes: z
    .string()
    .regex(/^-?[0-9]{1,4}$/, 'must be an integer number of minutes')
    .transform(Number)
    .refine((n) => n >= -840 && n <= 840, 'must be between -840 and 840')
    .optional(),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

export const SessionListItem = z
  .object({
    ambient_session_id: z.uuid(),
    encounter_id: z.uuid(),
    status: z.enum(SESSION_STATUSES),
    created_at: z.string(),
    chief_complaint: z.string().nullable(),
    visit_type: z.string().nullable(),
    /** Audio durably stored, over all recordings of the session. */
    audio_ms: z.number().int(),
    /** PHI from the context's patient block; null when not given. */
    patient_name: z.string().nullable(),
    mrn: z.string().nullable(),
    /** Sign-off state of the note; null until a note exists. */
    note_status: NoteStatus.nullable(),
    /** True when the note exists and is not signed (draft, or amended and not signed again). */
    needs_review: z.boolean(),
    /** Search only: where the query was found in the note's text (the first section that contains it). */
    note_match: z
      .object({ section: z.string(), loinc_code: z.string(), snippet: z.string().describe('the matching words with some text either side') })
      .nullable()
      .optional(),
  })
  .meta({ id: 'SessionListItem' });
export type SessionListItem = z.infer<typeof SessionListItem>;

export const SessionListResponse = z.object({ sessions: z.array(SessionListItem) }).meta({ id: 'SessionListResponse' });
export type SessionListResponse = z.infer<typeof SessionListResponse>;

export const SessionSearchQuery = z.object({
  q: z.string().trim().min(2, 'must be at least 2 characters').max(100, 'must be at most 100 characters'),
});

export const SectionParams = z.object({
  ambient_session_id: z.uuid({ message: 'must be a UUID' }),
  loinc: z.string().regex(/^[0-9]{1,7}-[0-9]$/, 'must be a LOINC code such as 10164-2'),
});

export const UpdateSectionRequest = z
  .object({ content: z.string().max(50_000, 'must be at most 50000 characters') })
  .meta({ id: 'UpdateSectionRequest' });
export type UpdateSectionRequest = z.infer<typeof UpdateSectionRequest>;

export const ClinicianTokenResponse = z
  .object({
    service_token: z.string(),
    /** Sent as sdp_provider_id by partners whose type requires it; null for STANDARD partners. */
    provider_id: z.string().nullable(),
    expires_at: z.string(),
  })
  .meta({ id: 'ClinicianTokenResponse' });
export type ClinicianTokenResponse = z.infer<typeof ClinicianTokenResponse>;
