import { and, eq } from 'drizzle-orm';
import { badRequest } from '@/lib/errors';
import type { SessionContext } from '@/lib/contracts/sessions';
import type { Db } from '../../db/client';
import { patientContext } from '../../db/schema';

export interface EmrMedication {
  name: string;
  rxcui?: string;
  status?: string;
}

/** Statuses that only make sense for a medication the patient is already taking. */
const NEEDS_CURRENT_MEDICATION = new Set(['DISCONTINUED', 'REFILLED']);

/** FHIR MedicationRequest/MedicationStatement statuses under which the patient is still on the drug. */
const CURRENT_STATUSES = new Set(['active', 'on-hold', 'intended', 'draft', 'unknown']);

const FORM_WORDS = new Set([
  'tab', 'tabs', 'tablet', 'tablets', 'cap', 'caps', 'capsule', 'capsules', 'oral', 'solution', 'suspension', 'mg', 'mcg', 'ml',
  'extended', 'release', 'delayed', 'er', 'xr', 'sr', 'dr', 'hcl', 'hydrochloride', 'sodium', 'potassium', 'injection', 'topical',
  'cream', 'ointment', 'inhaler', 'inhalation', 'patch', 'chewable', 'disintegrating', 'film', 'coated', 'daily', 'unit', 'units',
]);

/** Ingredient-like words of a drug name: "Lisinopril 10 MG Oral Tablet" → ["lisinopril"]. */
export function drugWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3 && !FORM_WORDS.has(w));
}

function isCurrent(med: EmrMedication): boolean {
  return med.status === undefined || med.status === null || CURRENT_STATUSES.has(String(med.status).toLowerCase());
}

/** Whether an order names one of the patient's current medications: same RXCUI, or a shared ingredient word. */
export function findCurrentMedication(
  order: { drug_name: string; medication_code?: { code: string; type: string } | null },
  medications: readonly EmrMedication[],
): EmrMedication | undefined {
  const current = medications.filter(isCurrent);
  const rxcui = order.medication_code?.type === 'RXCUI' ? order.medication_code.code : undefined;
  if (rxcui) {
    const byCode = current.find((m) => m.rxcui === rxcui);
    if (byCode) return byCode;
  }
  const words = new Set(drugWords(order.drug_name));
  if (words.size === 0) return undefined;
  return current.find((m) => drugWords(m.name).some((w) => words.has(w)));
}

/**
 * Pure part of the order check: the first DISCONTINUED or REFILLED order for a drug the patient is not
 * on, as a message naming the order, or null when every order is consistent with the EMR list.
 * `medications` is null when no EMR context exists for the patient.
 */
export function medicationOrderProblem(context: SessionContext, medications: readonly EmrMedication[] | null): string | null {
  const orders = context.orders?.medication_orders?.values ?? [];
  for (let i = 0; i < orders.length; i++) {
    const order = orders[i]!;
    if (!NEEDS_CURRENT_MEDICATION.has(order.status)) continue;
    const where = `orders.medication_orders.values[${i}]`;
    if (medications === null) {
      return `${where}: ${order.drug_name} cannot be ${order.status} because no EMR medication list is known for this patient (set patient.emr_patient_id and ingest the patient's medications through POST /api/v1/ckg/ingest)`;
    }
    if (!findCurrentMedication(order, medications)) {
      return `${where}: ${order.drug_name} is not an active medication for this patient, so it cannot be ${order.status}`;
    }
  }
  return null;
}

function asMedications(raw: unknown): EmrMedication[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && typeof (m as { name?: unknown }).name === 'string')
    .map((m) => ({
      name: m.name as string,
      rxcui: typeof m.rxcui === 'string' ? m.rxcui : typeof m.rxcui === 'number' ? String(m.rxcui) : undefined,
      status: typeof m.status === 'string' ? m.status : undefined,
    }));
}

/** Checks the context's medication orders against the patient's EMR medications (from CKG ingestion); 400 naming the order. */
export async function checkMedicationOrders(db: Db, partnerId: string, context: SessionContext): Promise<void> {
  const orders = context.orders?.medication_orders?.values ?? [];
  if (!orders.some((o) => NEEDS_CURRENT_MEDICATION.has(o.status))) return;
  const emrPatientId = context.patient?.emr_patient_id;
  let medications: EmrMedication[] | null = null;
  if (emrPatientId) {
    const row = (
      await db
        .select({ medications: patientContext.medications })
        .from(patientContext)
        .where(and(eq(patientContext.partnerId, partnerId), eq(patientContext.emrPatientId, emrPatientId)))
        .limit(1)
    )[0];
    if (row) medications = asMedications(row.medications);
  }
  const problem = medicationOrderProblem(context, medications);
  if (problem) throw badRequest(problem);
}
