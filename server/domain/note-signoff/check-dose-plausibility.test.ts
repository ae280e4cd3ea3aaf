import { describe, expect, it } from 'vitest';
import { medicationOrder } from '../../test/medication-order';
import type { MedicationOrder } from '@/lib/contracts/sessions';
import { checkDosePlausibility } from './check-dose-plausibility';
import DOSE_RANGES from './dose-ranges.json';
import { DRUG_CONCEPTS } from '../../codesets/builtin/drugs';

const order = (drug_name: string, quantity: number | null, unit: string | null, raw_value: string | null = null, more: Partial<MedicationOrder> = {}) =>
  medicationOrder({ drug_name, status: 'NEW', dosage: { quantity, unit, raw_value }, ...more });

describe('checkDosePlausibility', () => {
  it('flags lisinopril 10 g (the browser trial) and not lisinopril 10 mg', () => {
    expect(checkDosePlausibility(order('lisinopril', 10, 'G', '10 grams'))).toEqual({
      reason: 'HIGH',
      drug: 'lisinopril',
      said: '10 g',
      saidUnit: 'g',
      unit: 'mg',
      usual: '2.5-80 mg a day',
    });
    expect(checkDosePlausibility(order('lisinopril', 10, 'MG', '10 mg'))).toBeNull();
    // An order entered in the editor names the drug as the clinician typed it, or as the RxNorm concept they picked.
    expect(checkDosePlausibility(order('Lisinopril', 10, 'G', '10 g'))?.reason).toBe('HIGH');
    expect(checkDosePlausibility(order('lisinopril 10 MG Oral Tablet', 10, 'G', '10 g'))?.reason).toBe('HIGH');
    expect(checkDosePlausibility(order('Zestril', 10, 'G', '10 g'))?.drug).toBe('lisinopril');
  });

  it('flags levothyroxine 100 mg and not 100 mcg or 0.1 mg', () => {
    expect(checkDosePlausibility(order('levothyroxine', 100, 'MG', '100 mg'))).toMatchObject({ reason: 'HIGH', said: '100 mg', usual: '12.5-300 mcg a day' });
    expect(checkDosePlausibility(order('levothyroxine', 100, 'MCG', '100 micrograms'))).toBeNull();
    expect(checkDosePlausibility(order('levothyroxine', 0.1, 'MG', '0.1 mg'))).toBeNull();
  });

  it('flags metformin 5000 mg and not 500 mg, nor 1 g of acetaminophen', () => {
    expect(checkDosePlausibility(order('metformin', 500, 'MG', '500 mg'))).toBeNull();
    expect(checkDosePlausibility(order('metformin', 5000, 'MG', '5000 mg'))).toMatchObject({ reason: 'HIGH', usual: '500-2550 mg a day' });
    expect(checkDosePlausibility(order('acetaminophen', 1, 'G', '1 gram'))).toBeNull();
    expect(checkDosePlausibility(order('metformin hydrochloride 500 MG Oral Tablet', 500, 'MG'))).toBeNull();
  });

  it('flags a dose far below the lowest strength, and a unit the drug is not dosed in', () => {
    expect(checkDosePlausibility(order('lisinopril', 10, 'MCG', '10 micrograms'))).toMatchObject({ reason: 'LOW', said: '10 mcg' });
    expect(checkDosePlausibility(order('lisinopril', 10, 'UNIT', '10 units'))).toMatchObject({ reason: 'UNIT', said: '10 units', unit: 'mg' });
    expect(checkDosePlausibility(order('insulin glargine', 20, 'MG', '20 mg'))).toMatchObject({ reason: 'UNIT', unit: 'units' });
    expect(checkDosePlausibility(order('insulin glargine', 20, 'UNIT', '20 units'))).toBeNull();
    expect(checkDosePlausibility(order('insulin glargine', 20, 'IU', '20 IU'))).toBeNull();
  });

  it('reads vitamin D in IU or in mcg', () => {
    expect(checkDosePlausibility(order('cholecalciferol', 1000, 'IU', '1000 IU'))).toBeNull();
    expect(checkDosePlausibility(order('cholecalciferol', 25, 'MCG', '25 mcg'))).toBeNull();
    expect(checkDosePlausibility(order('cholecalciferol', 50_000, 'MG', '50000 mg'))?.reason).toBe('HIGH');
  });

  it('reads the dose from its words when no unit is coded', () => {
    expect(checkDosePlausibility(order('lisinopril', null, null, '10 grams daily'))?.said).toBe('10 g');
    expect(checkDosePlausibility(order('lisinopril', null, null, 'Lisinopril 10 Grams once a day'))?.said).toBe('10 g');
    expect(checkDosePlausibility(order('levothyroxine', null, null, '1,000 micrograms'))?.said).toBe('1000 mcg');
    expect(checkDosePlausibility(order('metformin', null, null, '500mg twice a day'))).toBeNull();
    expect(checkDosePlausibility(order('cholecalciferol', null, null, '2000 international units'))).toBeNull();
    expect(checkDosePlausibility(order('lisinopril', 10, 'milligrams'))).toBeNull();
    expect(checkDosePlausibility(order('lisinopril', 10, 'grams'))?.reason).toBe('HIGH');
  });

  it('does not judge a drug not in the table, a combination, a count, volume or weight-based dose, a local route, or no dose', () => {
    expect(checkDosePlausibility(order('unobtainium', 10, 'G', '10 grams'))).toBeNull();
    expect(checkDosePlausibility(order('hydrochlorothiazide / lisinopril', 10, 'G'))).toBeNull();
    expect(checkDosePlausibility(order('amoxicillin-clavulanate', 50, 'G'))).toBeNull();
    expect(checkDosePlausibility(order('lisinopril', 2, 'TAB', '2 tablets'))).toBeNull();
    expect(checkDosePlausibility(order('amoxicillin', 5, 'ML', '5 mL'))).toBeNull();
    expect(checkDosePlausibility(order('amoxicillin', 45, 'MG_PER_KG', '45 mg/kg'))).toBeNull();
    expect(checkDosePlausibility(order('amoxicillin', null, null, '45 mg/kg a day'))).toBeNull();
    expect(checkDosePlausibility(order('ibuprofen', 4, 'G', '4 g', { route: 'topical' }))).toBeNull();
    expect(checkDosePlausibility(order('lisinopril', null, null, null))).toBeNull();
  });

  it('does not crash on a dose it cannot read', () => {
    for (const dosage of [
      { quantity: null, unit: null, raw_value: 'a lot' },
      { quantity: null, unit: 'G', raw_value: 'ten' },
      { quantity: Number.NaN, unit: 'MG', raw_value: null },
      { quantity: -5, unit: 'MG', raw_value: '-5 mg' },
      { quantity: 0, unit: 'G', raw_value: '0 g' },
      { quantity: 10, unit: '   ', raw_value: '' },
    ])
      expect(checkDosePlausibility(medicationOrder({ dosage }))).toBeNull();
    expect(checkDosePlausibility({ ...medicationOrder(), drug_name: undefined, dosage: undefined } as unknown as MedicationOrder)).toBeNull();
  });

  it('keeps a table whose every drug is named as the built-in vocabulary names it, with a sane range and unit', () => {
    expect(DOSE_RANGES.source).toMatch(/DailyMed/);
    expect(DOSE_RANGES.drugs.length).toBeGreaterThanOrEqual(40);
    const ingredients = new Set(DRUG_CONCEPTS.map(([ingredient]) => ingredient));
    for (const d of DOSE_RANGES.drugs) {
      expect(ingredients, d.drug).toContain(d.drug);
      expect(['mg', 'mcg', 'g', 'unit', 'IU']).toContain(d.unit);
      expect(['day', 'week', 'dose']).toContain(d.per);
      expect(d.low).toBeGreaterThan(0);
      expect(d.high).toBeGreaterThanOrEqual(d.low);
      // Its own lowest and highest doses are plausible.
      const unit = ({ mg: 'MG', mcg: 'MCG', g: 'G', unit: 'UNIT', IU: 'IU' } as Record<string, string>)[d.unit] ?? null;
      expect(checkDosePlausibility(order(d.drug, d.low, unit))).toBeNull();
      expect(checkDosePlausibility(order(d.drug, d.high, unit))).toBeNull();
      expect(checkDosePlausibility(order(d.drug, d.high * 11, unit))?.reason).toBe('HIGH');
    }
    expect(new Set(DOSE_RANGES.drugs.map((d) => d.drug)).size).toBe(DOSE_RANGES.drugs.length);
  });
});
