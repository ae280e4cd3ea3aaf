import { describe, expect, it } from 'vitest';
import type { MedicationOrder } from '../types';
import { codedSentences } from './coded-sentences';

describe('codedSentences', () => {
  it('reads the facts of coded diagnoses and orders from their codes', () => {
    const o = { drug_name: 'metformin', status: 'CONTINUED', dosage: { quantity: 500, unit: 'MG', raw_value: null }, frequency: { raw_value: 'twice a day', structured_value: 'TWO_A_DAY' } } as MedicationOrder;
    const out = codedSentences({
      diagnoses: { values: [{ codes: [{ code: 'I10', description: 'Essential (primary) hypertension', type: 'ICD10' }], diagnosis_note: '' }, { codes: [{ code: 'Z88.0', description: 'Allergy status to penicillin', type: 'ICD10' }], diagnosis_note: '' }] },
      orders: { medication_orders: { values: [o], partial_values: [] }, service_orders: { values: [] } }, allergies: { values: [] },
      section_structured_values: [],
    });
    expect(out.map((s) => s.text)).toEqual(['I10 Essential (primary) hypertension', 'metformin 500 mg twice a day (CONTINUED)']);
    expect(out.map((s) => s.facts.map((f) => `${f.kind}:${f.key}`))).toEqual([['problem:I10'], ['drug:metformin', 'dose:500 mg', 'frequency:TWO_A_DAY']]);
    expect(out[1].facts[1].drug).toBe('metformin');
  });
});
