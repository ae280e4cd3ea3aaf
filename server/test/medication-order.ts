import type { MedicationOrder } from '@/lib/contracts/sessions';

/**
 * A coded order for tests: lisinopril 20 mg daily, CHANGED, from the visit, with any field overridden. Tests
 * state only the fields they are about.
 */
export function medicationOrder(overrides: Partial<MedicationOrder> & { source_transcripts?: string[] } = {}): MedicationOrder {
  return {
    drug_name: 'lisinopril',
    medication_code: { code: '29046', type: 'RXCUI' },
    status: 'CHANGED',
    dosage: { quantity: 20, unit: 'MG', raw_value: '20 mg' },
    frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' },
    medication_timing: null,
    route: null,
    duration_in_days: null,
    number_of_refills: null,
    instructions: null,
    metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' },
    linked_diagnosis_codes: [],
    ...overrides,
  };
}
