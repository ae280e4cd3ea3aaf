/**
 * The patient's name and MRN on a visit: set in the new-visit form or by partners through the context
 * API, and editable at any time afterwards here (the rest of the context is frozen once the session is
 * terminal, because the note was generated from it; the name and MRN only label the visit).
 */
import { z } from 'zod';
import { PatientContext } from './sessions';

export const PatchPatientIdentityRequest = z
  .object({
    /** null removes it. */
    name: PatientContext.shape.name.unwrap().nullable().optional(),
    mrn: PatientContext.shape.mrn.unwrap().nullable().optional(),
  })
  .meta({ id: 'PatchPatientIdentityRequest' });
export type PatchPatientIdentityRequest = z.infer<typeof PatchPatientIdentityRequest>;

export const PatientIdentityResponse = z
  .object({ name: z.string().nullable(), mrn: z.string().nullable() })
  .meta({ id: 'PatientIdentityResponse' });
export type PatientIdentityResponse = z.infer<typeof PatientIdentityResponse>;
