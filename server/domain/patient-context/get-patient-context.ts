import { and, eq } from 'drizzle-orm';
import type { PatientAllergy, PatientContext, PatientMedication, PatientProblem } from '@/lib/contracts/ckg';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { patientContext } from '../../db/schema';
import type { Scoped } from '../scope/scope';

/**
 * The patient's EMR context from the latest completed CKG ingestion, or null when none was ingested.
 * For order validation (see findPatientMedication) and note generation.
 */
export async function getPatientContext(app: AppContext, auth: Scoped, emrPatientId: string): Promise<PatientContext | null> {
  const row = (
    await tenantDb(app, auth).select(patientContext, undefined, eq(patientContext.emrPatientId, emrPatientId))
      .limit(1)
  )[0];
  if (!row) return null;
  return {
    emr_patient_id: row.emrPatientId,
    medications: row.medications as PatientMedication[],
    problems: row.problems as PatientProblem[],
    allergies: row.allergies as PatientAllergy[],
    updated_at: row.updatedAt.toISOString(),
  };
}
