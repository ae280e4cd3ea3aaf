import { eq } from 'drizzle-orm';
import { badRequest } from '@/lib/errors';
import type { SessionContext } from '@/lib/contracts/sessions';
import type { PatientContext, PatientMedication } from '@/lib/contracts/ckg';
import { tenantDb, type DbOwner, type Scoped, type TenantDb } from '../../db';
import { patientContext } from '../../db/schema';
import { findPatientMedication } from '../patient-context/find-patient-medication';

/** Statuses that only make sense for a medication the patient is already taking. */
const NEEDS_CURRENT_MEDICATION = new Set(['DISCONTINUED', 'REFILLED']);

/** FHIR statuses under which the patient is still on the drug, for records stored without `active`. */
const ACTIVE_STATUSES = new Set(['active', 'on-hold', 'intended', 'unknown']);

/** Fills in what older or hand-written patient_context rows may lack, so matching sees one shape. */
export function normaliseMedications(raw: unknown): PatientMedication[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && typeof (m as { name?: unknown }).name === 'string')
    .map((m) => {
      const status = typeof m.status === 'string' ? m.status : 'unknown';
      return {
        name: m.name as string,
        rxcui: typeof m.rxcui === 'string' ? m.rxcui : typeof m.rxcui === 'number' ? String(m.rxcui) : null,
        ndc: typeof m.ndc === 'string' ? m.ndc : null,
        status,
        active: typeof m.active === 'boolean' ? m.active : ACTIVE_STATUSES.has(status.toLowerCase()),
        dosage_text: typeof m.dosage_text === 'string' ? m.dosage_text : null,
        source: m.source === 'MedicationStatement' ? 'MedicationStatement' : 'MedicationRequest',
        source_id: typeof m.source_id === 'string' ? m.source_id : null,
      };
    });
}

/**
 * Pure part of the order check: the first DISCONTINUED or REFILLED order for a drug the patient is not
 * on, as a message naming the order, or null when every order is consistent with the EMR list.
 * `medications` is null when no EMR context exists for the patient.
 */
export function medicationOrderProblem(context: SessionContext, medications: readonly PatientMedication[] | null): string | null {
  const orders = context.orders?.medication_orders?.values ?? [];
  const emr: PatientContext | null =
    medications === null ? null : { emr_patient_id: context.patient?.emr_patient_id ?? '', medications: [...medications], problems: [], allergies: [], updated_at: '' };
  for (let i = 0; i < orders.length; i++) {
    const order = orders[i]!;
    if (!NEEDS_CURRENT_MEDICATION.has(order.status)) continue;
    const where = `orders.medication_orders.values[${i}]`;
    if (emr === null) {
      return `${where}: ${order.drug_name} cannot be ${order.status} because no EMR medication list is known for this patient (set patient.emr_patient_id and ingest the patient's medications through POST /api/v1/ckg/ingest)`;
    }
    const med = findPatientMedication(emr, { code: order.medication_code ?? null, drug_name: order.drug_name });
    if (!med || !med.active) {
      return `${where}: ${order.drug_name} is not an active medication for this patient, so it cannot be ${order.status}`;
    }
  }
  return null;
}

/**
 * Checks the context's medication orders against the patient's EMR medications (from CKG ingestion) in the
 * caller's scope, so only its own partner's EMR context counts; 400 naming the order. `app` may be an open
 * TenantDb (the context update's transaction).
 */
export async function checkMedicationOrders(app: DbOwner | TenantDb, auth: Scoped, context: SessionContext): Promise<void> {
  const orders = context.orders?.medication_orders?.values ?? [];
  if (!orders.some((o) => NEEDS_CURRENT_MEDICATION.has(o.status))) return;
  const emrPatientId = context.patient?.emr_patient_id;
  let medications: PatientMedication[] | null = null;
  if (emrPatientId) {
    const row = await tenantDb(app, auth).find(patientContext, eq(patientContext.emrPatientId, emrPatientId));
    if (row) medications = normaliseMedications(row.medications);
  }
  const problem = medicationOrderProblem(context, medications);
  if (problem) throw badRequest(problem);
}
