import type { PatientContext, PatientMedication } from '@/lib/contracts/ckg';

export interface MedicationLookup {
  /** The order's medication_code. */
  code?: { code: string; type: string } | null;
  drug_name?: string | null;
}

const normalise = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/**
 * The patient's medication an order refers to: by RXCUI or NDC when the order is coded, else by drug
 * name (case and punctuation ignored; an order name that starts with the listed name, or the reverse,
 * matches, so "metformin 500 mg tablet" finds "Metformin"). Null when the patient is not on record as
 * having it. The caller decides what inactive records (`active: false`) mean for its order status.
 */
export function findPatientMedication(context: PatientContext | null, order: MedicationLookup): PatientMedication | null {
  if (!context) return null;
  const meds = context.medications;
  const code = order.code?.code?.trim();
  const type = order.code?.type?.toUpperCase();
  if (code && type === 'RXCUI') {
    const hit = meds.find((m) => m.rxcui === code);
    if (hit) return hit;
  }
  if (code && type === 'NDC') {
    const digits = code.replace(/\D/g, '');
    const hit = meds.find((m) => m.ndc && m.ndc.replace(/\D/g, '') === digits);
    if (hit) return hit;
  }
  const name = order.drug_name ? normalise(order.drug_name) : '';
  if (!name) return null;
  const prefix = (a: string, b: string) => a === b || a.startsWith(`${b} `);
  const matches = meds.filter((m) => {
    const n = normalise(m.name);
    return n.length > 0 && (prefix(name, n) || prefix(n, name));
  });
  return matches.find((m) => m.active) ?? matches[0] ?? null;
}
