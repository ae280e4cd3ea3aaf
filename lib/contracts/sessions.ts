/**
 * Ambient session contracts: creating a session, its id parameters, the deprecated metadata body and the
 * status answer. The rest of a session lives beside this file, one module per seam: session-context.ts,
 * session-content.ts (transcript, note content, structured data), recordings.ts, preferences.ts and
 * rewrite.ts (re-exported here for existing importers), and dates.ts. Plain zod only: shared by handlers,
 * the OpenAPI document and the web app.
 */
import { z } from 'zod';
import { SESSION_STATUSES } from './session-status';
import { BirthDate } from './dates';
import { PatientSex } from './session-context';
import { nonEmpty, text, Uuid } from './common';
import { Specialty } from '@/lib/info';

export * from './dates';
export * from './session-context';
export * from './session-content';
export * from './recordings';
export * from './preferences';
export * from './rewrite';

// ---------------------------------------------------------------------------------------------
// Create
// ---------------------------------------------------------------------------------------------

export const CreateSessionRequest = z
  .object({
    ambient_session_id: Uuid.optional(),
    encounter_id: Uuid.optional(),
    /** Deprecated alias of encounter_id. */
    session_group_id: Uuid.optional().meta({ deprecated: true }),
    emr_encounter_id: nonEmpty(255).optional(),
    /** Deprecated: multilingual is always on; the value is ignored. */
    multilingual: z.boolean().optional().meta({ deprecated: true }),
  })
  .refine((b) => !b.encounter_id || !b.session_group_id || b.encounter_id === b.session_group_id, {
    message: 'must equal encounter_id when both are given (session_group_id is the deprecated name of encounter_id)',
    path: ['session_group_id'],
  })
  .meta({ id: 'CreateSessionRequest' });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const CreateSessionResponse = z
  .object({ ambient_session_id: z.uuid(), note_id: z.uuid(), encounter_id: z.uuid() })
  .meta({ id: 'CreateSessionResponse' });
export type CreateSessionResponse = z.infer<typeof CreateSessionResponse>;

export const SessionIdParams = z.object({ ambient_session_id: Uuid });
export const EncounterIdParams = z.object({ encounter_id: Uuid });

// ---------------------------------------------------------------------------------------------
// Metadata (deprecated)
// ---------------------------------------------------------------------------------------------

export const SessionMetadataRequest = z
  .object({
    note_sections: z.array(z.object({ title: text(255).optional(), description: text(2_000).optional() })).max(68).optional(),
    patient_dob: BirthDate.optional(),
    patient_sex: PatientSex.optional(),
    provider_specialty: Specialty.optional(),
  })
  .meta({ id: 'SessionMetadataRequest', deprecated: true });
export type SessionMetadataRequest = z.infer<typeof SessionMetadataRequest>;

// ---------------------------------------------------------------------------------------------
// Status
// ---------------------------------------------------------------------------------------------

export const SessionStatusResponse = z.object({ status: z.enum(SESSION_STATUSES) }).meta({ id: 'SessionStatusResponse' });
