import { describe, expect, it } from 'vitest';
import { noteFacts, precision, recall, referenceFacts, tally } from './facts';

describe('clinical facts', () => {
  it('reads drugs with dose and frequency, and A&P diagnoses at category level, from a reference note', () => {
    const f = referenceFacts('HISTORY OF PRESENT ILLNESS\n\nShe takes metformin 500 mg twice a day.\n\nASSESSMENT AND PLAN\n\n1. Hypertension.\nStart lisinopril 10 mg daily.\n2. Type 2 diabetes.');
    expect([...f.drugs].sort()).toEqual(['lisinopril', 'metformin']);
    expect([...f.doses].sort()).toEqual(['lisinopril 10 MG', 'metformin 500 MG']);
    expect([...f.frequencies].sort()).toEqual(['lisinopril ONE_A_DAY', 'metformin TWO_A_DAY']);
    expect([...f.dx].sort()).toEqual(['E11', 'I10']);
  });

  it('counts a drug with a wrong dose for the ingredient but not for the dose', () => {
    const order = (drug_name: string, quantity: number | null, freq: string | null) => ({
      drug_name, medication_code: null, status: 'NEW', dosage: { quantity, unit: quantity === null ? null : 'MG', raw_value: null },
      frequency: { raw_value: null, structured_value: freq }, medication_timing: null, route: null, duration_in_days: null, number_of_refills: null,
      instructions: null, metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' }, linked_diagnosis_codes: [],
    });
    const f = noteFacts({ structured_data: { diagnoses: { values: [] }, orders: { medication_orders: { values: [order('lisinopril', 20, 'ONE_A_DAY')], partial_values: [order('metformin', null, null)] }, service_orders: { values: [] } }, allergies: { values: [] }, section_structured_values: [] } });
    const ref = referenceFacts('PLAN\n\nStart lisinopril 10 mg daily and metformin 500 mg twice a day.');
    expect(recall(tally(f.drugs, ref.drugs))).toBe(1);
    const doses = tally(f.doses, ref.doses);
    expect([doses.tp, precision(doses), recall(doses)]).toEqual([0, 0, 0]);
    expect(recall(tally(f.frequencies, ref.frequencies))).toBe(0.5);
  });
});
