import { describe, expect, it } from 'vitest';
import { doseCell, frequencyCell } from './medication-cells';

const mg = (quantity: number) => ({ quantity, unit: 'MG', raw_value: `${quantity} milligrams` });

describe('the medication table of the structured-data panel', () => {
  it('shows the dose a changed order replaces, as the note says "increased from 500 mg to 1000 mg"', () => {
    expect(doseCell({ status: 'CHANGED', dosage: mg(1000), previous_dosage: mg(500) })).toBe('1000 milligrams, was 500 milligrams');
  });

  it('shows only the dose for an order that changed nothing, or whose earlier dose was not said', () => {
    expect(doseCell({ status: 'ACTIVE', dosage: mg(20), previous_dosage: mg(10) })).toBe('20 milligrams');
    expect(doseCell({ status: 'CHANGED', dosage: mg(20), previous_dosage: null })).toBe('20 milligrams');
    expect(doseCell({ status: 'CHANGED', dosage: { quantity: 20, unit: 'MG', raw_value: null } })).toBe('20 mg');
    expect(doseCell({ status: 'NEW', dosage: { quantity: null, unit: null, raw_value: null } })).toBe('—');
  });

  it('says "as needed" once, with its reason, when the frequency is itself as needed', () => {
    expect(frequencyCell({ frequency: { raw_value: 'as needed', structured_value: 'AS_NEEDED' }, as_needed: true, as_needed_reason: 'shortness of breath' })).toBe('as needed for shortness of breath');
    expect(frequencyCell({ frequency: { raw_value: 'every 6 hours', structured_value: null }, as_needed: true, as_needed_reason: 'pain' })).toBe('every 6 hours, as needed for pain');
    expect(frequencyCell({ frequency: { raw_value: null, structured_value: 'TWO_A_DAY' } })).toBe('Two a day');
  });
});
