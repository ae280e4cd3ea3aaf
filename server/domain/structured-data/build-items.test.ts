import { describe, expect, it } from 'vitest';
import { builtinCodeIndex } from '../../codesets/index';
import { medicationOrder } from '../../test/medication-order';
import { buildDiagnosis } from './build-diagnosis';
import { buildMedicationOrder } from './build-medication-order';
import { buildAllergy } from './build-allergy';
import { buildServiceOrder } from './build-service-order';
import { orderableLookup } from './orderable-lookup';
import { substanceLookup } from './substance-lookup';
import { locateItem, readStructuredData } from './structured-lists';

const codes = builtinCodeIndex();

describe('a clinician edit as stored structured data', () => {
  it('codes a diagnosis from the code sets with its HCC category, and keeps its transcript lines only for the same code', () => {
    const before = { codes: [{ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', type: 'ICD10' as const }], diagnosis_note: 'Stable.', source_transcripts: ['t1'] };
    const same = buildDiagnosis(codes, { code: 'e119' }, before);
    expect(same.codes.map((c) => [c.type, c.code])).toEqual([['ICD10', 'E11.9'], ['HCC', 'HCC38']]);
    expect(same).toMatchObject({ diagnosis_note: 'Stable.', source_transcripts: ['t1'] });
    const other = buildDiagnosis(codes, { code: 'I10', laterality_indicator: null }, before);
    expect(other).toEqual({ codes: [{ code: 'I10', description: 'Essential (primary) hypertension', type: 'ICD10' }], diagnosis_note: '' });
    expect(() => buildDiagnosis(codes, { code: 'ZZZ' })).toThrow(/^code: ZZZ is not an ICD-10-CM code/);
  });

  it('writes a medication order with the dose as words, as-needed from its reason, and keeps what the form has no field for', () => {
    const before = medicationOrder({ instructions: 'Take with food.', number_of_refills: 2, source_transcripts: ['t3'] });
    const o = buildMedicationOrder(codes, { drug_name: before.drug_name, rxcui: before.medication_code!.code, dose_quantity: 2, dose_unit: 'TAB', frequency: 'AS_NEEDED', status: 'CHANGED', as_needed_reason: 'pain' }, before);
    expect(o).toMatchObject({
      dosage: { quantity: 2, unit: 'TAB', raw_value: '2 tablets' },
      frequency: { structured_value: 'AS_NEEDED' },
      as_needed: true,
      as_needed_reason: 'pain',
      instructions: 'Take with food.',
      number_of_refills: 2,
      metadata: { origin: 'USER' },
      source_transcripts: ['t3'],
    });
    const plain = buildMedicationOrder(codes, { drug_name: 'metformin', rxcui: '6809', dose_quantity: 500, dose_unit: 'MG', frequency: 'TWO_A_DAY', status: 'CONTINUED', instructions: null });
    expect(plain).toMatchObject({ dosage: { raw_value: '500 mg' }, frequency: { raw_value: 'twice a day' }, as_needed: false, as_needed_reason: null, instructions: null, linked_diagnosis_codes: [] });
    // Continuing is an ACTIVE order of this encounter (issue 29 item 3), even replacing one only reported taken.
    expect([plain.status, plain.metadata]).toEqual(['ACTIVE', { origin: 'USER', encounter_relation: 'CURRENT_ENCOUNTER' }]);
    const reported = { ...plain, metadata: { origin: 'AMBIENT', encounter_relation: 'PRIOR_ENCOUNTER' } };
    expect(buildMedicationOrder(codes, { drug_name: 'metformin', rxcui: '6809', status: 'CONTINUED' }, reported).metadata.encounter_relation).toBe('CURRENT_ENCOUNTER');
    expect(buildMedicationOrder(codes, { drug_name: 'metformin', rxcui: '6809', status: 'ACTIVE' }, reported).metadata.encounter_relation).toBe('PRIOR_ENCOUNTER');
    expect(plain.source_transcripts).toBeUndefined();
    expect(() => buildMedicationOrder(codes, { drug_name: 'x', rxcui: '0', status: 'NEW' })).toThrow(/^rxcui: /);
  });

  it('codes an allergy to a drug class or an RxNorm ingredient, and keeps an unknown substance as text', () => {
    const lookup = substanceLookup(codes);
    expect(buildAllergy(lookup, { substance: 'penicillin', substance_code: { code: 'J01C', type: 'DRUG_CLASS' }, reaction: 'rash', verification: 'CONFIRMED' }).substance_code).toMatchObject({ code: 'J01C', type: 'DRUG_CLASS' });
    expect(buildAllergy(lookup, { substance: 'metformin', substance_code: { code: '6809', type: 'RXCUI' }, verification: 'REPORTED' })).toEqual({
      substance: 'metformin', substance_code: { code: '6809', type: 'RXCUI', display: 'metformin' }, reaction: null, verification: 'REPORTED',
    });
    expect(buildAllergy(lookup, { substance: 'latex', verification: 'CONFIRMED' }).substance_code).toBeNull();
    expect(() => buildAllergy(lookup, { substance: 'x', substance_code: { code: '6809', type: 'DRUG_CLASS' }, verification: 'CONFIRMED' })).toThrow(/^substance_code\.code: 6809 is not a drug class/);
  });

  it('codes a lab or imaging order from the orderables, refusing a code of the other kind', () => {
    const lookup = orderableLookup();
    expect(buildServiceOrder(lookup, { name: 'bmp', category: 'LAB', loinc: '51990-0' }).code).toEqual({ code: '51990-0', type: 'LOINC', display: 'Basic metabolic panel - Blood' });
    expect(() => buildServiceOrder(lookup, { name: 'bmp', category: 'IMAGING', loinc: '51990-0' })).toThrow(/^category: 51990-0 is a LAB order/);
  });

  it('reads older stored data with the new lists empty, and finds medication orders over values then partial values', () => {
    const sd = readStructuredData({ diagnoses: { values: [] }, orders: { medication_orders: { values: [medicationOrder()], partial_values: [medicationOrder({ drug_name: 'x' })] } }, section_structured_values: [] });
    expect(sd.allergies.values).toEqual([]);
    expect(sd.orders.service_orders.values).toEqual([]);
    expect(locateItem(sd, 'medication_orders', 1)).toEqual({ list: sd.orders.medication_orders.partial_values, index: 0 });
    expect(locateItem(sd, 'medication_orders', 2)).toBeNull();
    expect(locateItem(sd, 'allergies', 0)).toBeNull();
  });
});
