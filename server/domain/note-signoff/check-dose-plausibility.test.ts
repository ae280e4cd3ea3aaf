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
      // Its own lowest and highest doses are plausible, on its own schedule: once a week for a weekly drug.
      const unit = ({ mg: 'MG', mcg: 'MCG', g: 'G', unit: 'UNIT', IU: 'IU' } as Record<string, string>)[d.unit] ?? null;
      const schedule = { frequency: d.per === 'week' ? { raw_value: 'once a week', structured_value: 'ONCE_A_WEEK' } : { raw_value: 'daily', structured_value: 'ONE_A_DAY' } };
      expect(checkDosePlausibility(order(d.drug, d.low, unit, null, schedule))).toBeNull();
      expect(checkDosePlausibility(order(d.drug, d.high, unit, null, schedule))).toBeNull();
      expect(checkDosePlausibility(order(d.drug, d.high * 11, unit, null, schedule))?.reason).toBe('HIGH');
      expect(checkDosePlausibility(order(d.drug, d.high * 11, unit, null, { frequency: { raw_value: null, structured_value: null } }))?.reason).toBe('HIGH');
      // Its daily regimen's doses, or the least and most of its daily range, taken once a day.
      const regimen = (d as { daily?: { doses?: number[]; low?: number; high?: number } }).daily;
      for (const daily of regimen?.doses ?? [regimen?.low, regimen?.high].filter((n) => n !== undefined))
        expect(checkDosePlausibility(order(d.drug, daily, unit)), `${d.drug} ${daily} daily`).toBeNull();
    }
    expect(new Set(DOSE_RANGES.drugs.map((d) => d.drug)).size).toBe(DOSE_RANGES.drugs.length);
  });
});

describe('checkDosePlausibility with the order\'s frequency', () => {
  const sig = (drug: string, mg: number, structured: string | null, raw: string | null, more: Partial<MedicationOrder> = {}) =>
    order(drug, mg, 'MG', `${mg} mg`, { frequency: { raw_value: raw, structured_value: structured }, ...more });

  it('flags a daily total above the daily maximum that only the frequency reaches, saying the total', () => {
    expect(checkDosePlausibility(sig('metformin', 1000, 'FOUR_A_DAY', 'four times a day'))).toEqual({
      reason: 'HIGH',
      drug: 'metformin',
      said: '1000 mg',
      saidUnit: 'mg',
      unit: 'mg',
      usual: '500-2550 mg a day',
      frequency: 'four times a day',
      total: '4000 mg a day',
    });
    expect(checkDosePlausibility(sig('lisinopril', 40, 'THREE_A_DAY', 'three times a day'))).toMatchObject({ reason: 'HIGH', total: '120 mg a day', usual: '2.5-80 mg a day' });
    expect(checkDosePlausibility(sig('acetaminophen', 1000, 'EVERY_4_HOURS', 'every 4 hours'))).toMatchObject({ reason: 'HIGH', frequency: 'every 4 hours', total: '6000 mg a day' });
    // In grams, and as needed: the most the order allows.
    expect(checkDosePlausibility(order('acetaminophen', 1, 'G', '1 gram', { frequency: { raw_value: 'every 4 hours', structured_value: 'EVERY_4_HOURS' }, as_needed: true }))).toMatchObject({
      said: '1 g',
      frequency: 'every 4 hours as needed',
      total: 'up to 6000 mg a day',
    });
  });

  it('does not flag a daily total within the maximum, at the bound, or one the order caps', () => {
    expect(checkDosePlausibility(sig('metformin', 1000, 'TWO_A_DAY', 'twice a day'))).toBeNull();
    expect(checkDosePlausibility(sig('acetaminophen', 1000, 'EVERY_6_HOURS', 'every 6 hours', { as_needed: true }))).toBeNull();
    expect(checkDosePlausibility(sig('acetaminophen', 1000, 'AS_NEEDED', 'every 6 hours as needed'))).toBeNull();
    const q4h = (instructions: string) => sig('acetaminophen', 1000, 'EVERY_4_HOURS', 'every 4 hours', { as_needed: true, instructions });
    expect(checkDosePlausibility(q4h('not to exceed 4 g a day'))).toBeNull();
    expect(checkDosePlausibility(q4h('no more than 4 doses in 24 hours'))).toBeNull();
    expect(checkDosePlausibility(q4h('max 5 g a day'))).toMatchObject({ frequency: 'every 4 hours as needed, at most 5 g a day', total: 'up to 5000 mg a day' });
    expect(checkDosePlausibility(sig('acetaminophen', 1000, 'EVERY_2_HOURS', 'every 2 hours', { as_needed: true, instructions: 'no more than 6 doses a day' }))).toMatchObject({
      frequency: 'every 2 hours as needed, at most 6 doses a day',
      total: 'up to 6000 mg a day',
    });
  });

  it('reads the frequency from its words when no code is given, and the shortest interval of a range', () => {
    expect(checkDosePlausibility(sig('metformin', 1000, null, 'four times a day'))?.total).toBe('4000 mg a day');
    expect(checkDosePlausibility(sig('acetaminophen', 1000, null, 'q4h prn'))).toMatchObject({ frequency: 'every 4 hours as needed', total: 'up to 6000 mg a day' });
    expect(checkDosePlausibility(sig('acetaminophen', 1000, 'AS_NEEDED', 'every 4 to 6 hours as needed'))?.total).toBe('up to 6000 mg a day');
    expect(checkDosePlausibility(sig('acetaminophen', 650, 'AS_NEEDED', 'every 4 to 6 hours as needed'))).toBeNull();
  });

  it('does not judge a frequency that is absent, unreadable, or as needed with no interval', () => {
    expect(checkDosePlausibility(sig('metformin', 1000, null, null))).toBeNull();
    expect(checkDosePlausibility(sig('methotrexate', 15, null, null))).toBeNull();
    expect(checkDosePlausibility(sig('acetaminophen', 1000, 'AS_NEEDED', 'as needed', { as_needed: true }))).toBeNull();
    expect(checkDosePlausibility(sig('methotrexate', 15, 'AS_NEEDED', 'as needed'))).toBeNull();
    expect(checkDosePlausibility(sig('metformin', 1000, null, 'whenever she remembers'))).toBeNull();
    expect(checkDosePlausibility(sig('metformin', 1000, 'SOMETIMES', 'four times a day'))).toBeNull();
    expect(checkDosePlausibility(sig('methotrexate', 15, 'CONTINUOUS', null))).toBeNull();
  });

  it('flags a once-a-week drug ordered more often, saying the week\'s total', () => {
    const daily = checkDosePlausibility(sig('methotrexate', 15, 'ONE_A_DAY', 'daily'));
    expect(daily).toMatchObject({ reason: 'FREQUENCY', drug: 'methotrexate', said: '15 mg', usual: '7.5-30 mg a week', frequency: 'once a day', total: '105 mg a week' });
    // Methotrexate has no daily regimen to offer in its place.
    expect(daily).not.toHaveProperty('alsoDaily');
    expect(checkDosePlausibility(sig('methotrexate', 7.5, 'TWO_A_DAY', 'twice a day'))).toMatchObject({ reason: 'FREQUENCY', total: '105 mg a week' });
    expect(checkDosePlausibility(sig('methotrexate', 15, 'TWICE_A_WEEK', 'twice a week'))).toMatchObject({ reason: 'FREQUENCY', total: '30 mg a week' });
    expect(checkDosePlausibility(sig('semaglutide', 1, 'ONE_A_DAY', 'daily'))).toMatchObject({ reason: 'FREQUENCY', total: '7 mg a week (1 mg a day)', alsoDaily: 'daily by mouth (1.5, 3, 4, 7, 9, 14 or 25 mg a day)' });
    expect(checkDosePlausibility(sig('tirzepatide', 5, 'ONE_A_DAY', 'daily'))).toMatchObject({ reason: 'FREQUENCY', usual: '2.5-15 mg a week', total: '35 mg a week' });
    expect(checkDosePlausibility(sig('dulaglutide', 1.5, 'ONE_A_DAY', 'daily'))).toMatchObject({ reason: 'FREQUENCY', total: '10.5 mg a week' });
    expect(checkDosePlausibility(sig('alendronate', 70, 'ONE_A_DAY', 'daily'))).toMatchObject({
      reason: 'FREQUENCY',
      usual: '35-70 mg a week',
      total: '490 mg a week (70 mg a day)',
      alsoDaily: 'daily (5, 10 or 40 mg a day)',
    });
    expect(checkDosePlausibility(sig('Fosamax', 35, 'ONE_A_DAY', 'daily'))?.reason).toBe('FREQUENCY');
  });

  it('does not flag a once-a-week drug once a week, nor a daily regimen the drug has', () => {
    expect(checkDosePlausibility(sig('methotrexate', 15, 'ONCE_A_WEEK', 'once a week'))).toBeNull();
    expect(checkDosePlausibility(sig('methotrexate', 15, null, 'weekly'))).toBeNull();
    expect(checkDosePlausibility(sig('alendronate', 70, 'ONCE_A_WEEK', 'weekly'))).toBeNull();
    expect(checkDosePlausibility(sig('alendronate', 10, 'ONE_A_DAY', 'daily'))).toBeNull();
    expect(checkDosePlausibility(sig('alendronate', 40, 'ONE_A_DAY', 'daily'))).toBeNull();
    expect(checkDosePlausibility(sig('semaglutide', 1, 'ONCE_A_WEEK', 'once a week', { route: 'subcutaneous' }))).toBeNull();
    expect(checkDosePlausibility(sig('tirzepatide', 5, 'ONCE_A_WEEK', 'once a week'))).toBeNull();
  });

  it('tells oral semaglutide (daily tablets) from its weekly injection by route, name and dose', () => {
    expect(checkDosePlausibility(sig('semaglutide', 7, 'ONE_A_DAY', 'daily', { route: 'oral' }))).toBeNull();
    expect(checkDosePlausibility(sig('Rybelsus', 7, 'ONE_A_DAY', 'daily'))).toBeNull();
    expect(checkDosePlausibility(sig('semaglutide 7 MG Oral Tablet', 7, 'ONE_A_DAY', 'daily'))).toBeNull();
    // No route: 7 mg can only be the tablet; 2.4 mg is no tablet strength, the injection's weekly dose taken daily.
    expect(checkDosePlausibility(sig('semaglutide', 7, 'ONE_A_DAY', 'daily'))).toBeNull();
    expect(checkDosePlausibility(sig('semaglutide', 2.4, 'ONE_A_DAY', 'daily'))?.reason).toBe('FREQUENCY');
    // Injected daily: the tablets' doses do not apply.
    expect(checkDosePlausibility(sig('semaglutide', 2, 'ONE_A_DAY', 'daily', { route: 'subcutaneous' }))).toMatchObject({ reason: 'FREQUENCY', total: '14 mg a week' });
    expect(checkDosePlausibility(sig('semaglutide', 2, 'ONE_A_DAY', 'daily', { route: 'subcutaneous' }))?.alsoDaily).toBeUndefined();
    expect(checkDosePlausibility(sig('Ozempic', 1, 'ONE_A_DAY', 'daily'))?.reason).toBe('FREQUENCY');
    expect(checkDosePlausibility(sig('semaglutide pen', 7, 'ONE_A_DAY', 'daily'))).toMatchObject({ reason: 'HIGH', usual: '0.25-2.4 mg a week' });
    // A tablet strength said once a week is judged as the injection.
    expect(checkDosePlausibility(sig('semaglutide', 14, 'ONCE_A_WEEK', 'once a week'))).toMatchObject({ reason: 'HIGH', usual: '0.25-2.4 mg a week' });
  });
});

describe('checkDosePlausibility of vitamin D, taken daily or once a week', () => {
  const vitD = (drug: string, quantity: number, unit: string, structured: string | null, raw: string | null) =>
    order(drug, quantity, unit, `${quantity} ${unit.toLowerCase()}`, { frequency: { raw_value: raw, structured_value: structured } });

  it('flags 50,000 IU more often than once a week, a weekly dose taken daily', () => {
    expect(checkDosePlausibility(vitD('cholecalciferol', 50_000, 'IU', 'ONE_A_DAY', 'daily'))).toEqual({
      reason: 'FREQUENCY',
      drug: 'cholecalciferol',
      said: '50000 IU',
      saidUnit: 'IU',
      unit: 'IU',
      usual: '50000 IU a week',
      frequency: 'once a day',
      total: '350000 IU a week (50000 IU a day)',
      alsoDaily: 'daily (400-10000 IU a day)',
    });
    expect(checkDosePlausibility(order('vitamin D3', null, null, '50,000 IU daily'))).toMatchObject({ reason: 'FREQUENCY', drug: 'cholecalciferol' });
    expect(checkDosePlausibility(vitD('ergocalciferol', 50_000, 'UNIT', 'ONE_A_DAY', 'daily'))).toMatchObject({
      reason: 'FREQUENCY',
      drug: 'ergocalciferol',
      said: '50000 units',
      unit: 'IU',
      total: '350000 IU a week (50000 IU a day)',
    });
    expect(checkDosePlausibility(order('ergocalciferol', null, null, '50000 units', { frequency: { raw_value: 'once a day', structured_value: null } }))?.reason).toBe('FREQUENCY');
    expect(checkDosePlausibility(vitD('ergocalciferol', 1.25, 'MG', 'ONE_A_DAY', 'daily'))).toMatchObject({ reason: 'FREQUENCY', said: '1.25 mg' });
    expect(checkDosePlausibility(vitD('cholecalciferol', 50_000, 'IU', 'TWICE_A_WEEK', 'twice a week'))).toMatchObject({ reason: 'FREQUENCY', total: '100000 IU a week' });
    expect(checkDosePlausibility(vitD('vitamin d', 50_000, 'IU', null, 'every other day'))?.reason).toBe('FREQUENCY');
    // Above the daily range's 10,000 IU, taken daily.
    expect(checkDosePlausibility(vitD('cholecalciferol', 20_000, 'IU', 'ONE_A_DAY', 'daily'))).toMatchObject({ reason: 'FREQUENCY', total: '140000 IU a week (20000 IU a day)' });
    expect(checkDosePlausibility(vitD('cholecalciferol', 10_000, 'IU', 'TWO_A_DAY', 'twice a day'))?.reason).toBe('FREQUENCY');
  });

  it('does not flag a daily dose up to 10,000 IU, nor 50,000 IU once a week or every two weeks', () => {
    for (const iu of [400, 1000, 2000, 4000, 6000, 10_000]) {
      expect(checkDosePlausibility(vitD('cholecalciferol', iu, 'IU', 'ONE_A_DAY', 'daily')), `${iu} IU daily`).toBeNull();
      expect(checkDosePlausibility(vitD('ergocalciferol', iu, 'UNIT', 'ONE_A_DAY', 'daily')), `${iu} units daily`).toBeNull();
    }
    expect(checkDosePlausibility(vitD('cholecalciferol', 2000, 'IU', 'TWO_A_DAY', 'twice a day'))).toBeNull();
    expect(checkDosePlausibility(vitD('cholecalciferol', 250, 'MCG', 'ONE_A_DAY', 'daily'))).toBeNull();
    expect(checkDosePlausibility(vitD('cholecalciferol', 1000, 'IU', 'EVERY_OTHER_DAY', 'every other day'))).toBeNull();
    expect(checkDosePlausibility(vitD('cholecalciferol', 1000, 'IU', 'ONCE_A_WEEK', 'once a week'))).toBeNull();
    for (const drug of ['cholecalciferol', 'ergocalciferol', 'vitamin d']) {
      expect(checkDosePlausibility(vitD(drug, 50_000, 'IU', 'ONCE_A_WEEK', 'once a week')), `${drug} weekly`).toBeNull();
      expect(checkDosePlausibility(vitD(drug, 50_000, 'UNIT', null, 'weekly')), `${drug} weekly in words`).toBeNull();
      expect(checkDosePlausibility(vitD(drug, 50_000, 'IU', 'EVERY_2_WEEKS', 'every 2 weeks')), `${drug} every 2 weeks`).toBeNull();
      expect(checkDosePlausibility(vitD(drug, 50_000, 'IU', null, 'every two weeks')), `${drug} every two weeks in words`).toBeNull();
      expect(checkDosePlausibility(vitD(drug, 50_000, 'IU', 'ONCE_A_MONTH', 'once a month')), `${drug} monthly`).toBeNull();
      expect(checkDosePlausibility(vitD(drug, 50_000, 'IU', null, null)), `${drug} with no frequency`).toBeNull();
    }
    expect(checkDosePlausibility(vitD('ergocalciferol', 1.25, 'MG', 'ONCE_A_WEEK', 'once a week'))).toBeNull();
    // A single dose above the weekly capsule is high on any schedule.
    expect(checkDosePlausibility(vitD('cholecalciferol', 100_000, 'IU', 'ONCE_A_WEEK', 'once a week'))).toMatchObject({ reason: 'HIGH', usual: '50000 IU a week' });
  });
});

describe('checkDosePlausibility of a dose in tablets of a stated strength', () => {
  const tabs = (raw: string, quantity: number, structured: string | null, freq: string | null, more: Partial<MedicationOrder> = {}) =>
    order('acetaminophen', quantity, 'MG', raw, { frequency: { raw_value: freq, structured_value: structured }, ...more });

  it('counts the tablets a dose is, and reads a cap in tablets as that many times the strength', () => {
    expect(checkDosePlausibility(tabs('500 mg 2 tablets', 500, 'EVERY_4_HOURS', 'every 4 hours'))).toMatchObject({
      reason: 'HIGH',
      said: '500 mg 2 tablets',
      frequency: 'every 4 hours',
      total: '6000 mg a day',
    });
    expect(checkDosePlausibility(tabs('500 mg, 2 tablets', 500, 'EVERY_4_HOURS', 'every 4 hours', { instructions: 'maximum 12 tablets a day' }))?.total).toBe('6000 mg a day');
    // As needed with no interval: only the cap says how much a day.
    expect(checkDosePlausibility(tabs('500 mg 2 tablets', 500, 'AS_NEEDED', 'as needed', { as_needed: true, instructions: 'no more than 12 tablets a day' }))).toMatchObject({
      reason: 'HIGH',
      frequency: 'as needed, at most 12 tablets a day',
      total: 'up to 6000 mg a day',
    });
    expect(checkDosePlausibility(tabs('500 mg tablets', 500, 'AS_NEEDED', 'as needed', { as_needed: true, instructions: 'not to exceed 10 tablets per day' }))?.total).toBe('up to 5000 mg a day');
    expect(checkDosePlausibility(tabs('500 mg 2 capsules', 500, null, 'prn, max 10 caps/day'))?.total).toBe('up to 5000 mg a day');
    expect(checkDosePlausibility(tabs('500 mg 10 tablets', 500, null, null))).toMatchObject({ reason: 'HIGH', said: '500 mg 10 tablets' });
  });

  it('does not flag a tablet cap that keeps the day within the maximum', () => {
    expect(checkDosePlausibility(tabs('500 mg 2 tablets', 500, 'EVERY_4_HOURS', 'every 4 hours', { instructions: 'maximum 8 tablets a day' }))).toBeNull();
    expect(checkDosePlausibility(tabs('500 mg 2 tablets', 500, null, 'every 4 hours, maximum 8 tablets a day'))).toBeNull();
    expect(checkDosePlausibility(tabs('500 mg 2 tablets', 500, 'EVERY_4_HOURS', 'every 4 hours as needed', { instructions: 'no more than 8 pills in 24 hours' }))).toBeNull();
    expect(checkDosePlausibility(tabs('500 mg 1 tablet', 500, 'EVERY_2_HOURS', 'every 2 hours', { as_needed: true, instructions: 'no more than 8 tablets a day' }))).toBeNull();
    expect(checkDosePlausibility(tabs('500 mg two capsules', 500, 'AS_NEEDED', 'as needed', { instructions: 'do not exceed 8 capsules a day' }))).toBeNull();
    expect(checkDosePlausibility(tabs('500 mg 2 tablets', 500, 'EVERY_6_HOURS', 'every 6 hours'))).toBeNull();
    expect(checkDosePlausibility(tabs('325 mg 2 tablets', 325, 'EVERY_4_HOURS', 'every 4 hours', { as_needed: true, instructions: 'max 12 tablets a day' }))).toBeNull();
  });

  it('does not guess a tablet\'s strength the order does not make clear', () => {
    // A dose with no tablet count or form: the cap in tablets is not read.
    expect(checkDosePlausibility(tabs('1000 mg', 1000, 'AS_NEEDED', 'as needed', { instructions: 'no more than 8 tablets a day' }))).toBeNull();
    expect(checkDosePlausibility(tabs('1000 mg', 1000, 'EVERY_4_HOURS', 'every 4 hours', { instructions: 'maximum 4 tablets a day' }))?.total).toBe('6000 mg a day');
    // The count first, the strength after: not read as a tablet's strength.
    expect(checkDosePlausibility(tabs('2 tablets of 500 mg', 500, 'AS_NEEDED', 'as needed', { instructions: 'maximum 12 tablets a day' }))).toBeNull();
    expect(checkDosePlausibility(tabs('500 mg 1/2 tablet', 500, 'AS_NEEDED', 'as needed', { instructions: 'maximum 12 tablets a day' }))).toBeNull();
    // The words' strength is not the coded dose's.
    expect(checkDosePlausibility(tabs('650 mg 2 tablets', 500, 'AS_NEEDED', 'as needed', { instructions: 'maximum 12 tablets a day' }))).toBeNull();
    expect(checkDosePlausibility(order('acetaminophen', 2, 'TAB', '2 tablets', { frequency: { raw_value: 'every 4 hours', structured_value: 'EVERY_4_HOURS' }, instructions: 'maximum 12 tablets a day' }))).toBeNull();
  });
});
