import { eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { PatchPatientIdentityRequest, PatientIdentityResponse } from '@/lib/contracts/patient-identity';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import type { AppContext } from '../../context';
import { ambientSessions } from '../../db/schema';

type Ctx = { patient?: Record<string, unknown> } & Record<string, unknown>;

/**
 * Sets or clears the patient's name and MRN in the session context's patient block, in any session
 * state. Nothing else in the context changes. Row-locked so a concurrent context PATCH is not lost.
 */
export async function updatePatientIdentity(
  app: AppContext,
  auth: ServicePrincipal,
  sessionId: string,
  input: PatchPatientIdentityRequest,
): Promise<PatientIdentityResponse> {
  return tenantDb(app, auth).transaction(async (tx) => {
    const row = await tx.find(ambientSessions, eq(ambientSessions.id, sessionId), { forUpdate: true });
    if (!row) throw notFound('ambient session not found');
    const context: Ctx = { ...((row.context as Ctx | null) ?? {}) };
    const patient: Record<string, unknown> = { ...(context.patient ?? {}) };
    for (const key of ['name', 'mrn'] as const) {
      const v = input[key];
      if (v === null) delete patient[key];
      else if (v !== undefined) patient[key] = v;
    }
    if (Object.keys(patient).length) context.patient = patient;
    else delete context.patient;
    await tx.update(ambientSessions, { context, updatedAt: new Date() }, eq(ambientSessions.id, sessionId));
    return { name: typeof patient.name === 'string' ? patient.name : null, mrn: typeof patient.mrn === 'string' ? patient.mrn : null };
  });
}
