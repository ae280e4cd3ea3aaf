import { describe, expect, it } from 'vitest';
import type { MedicationOrder } from '../types';
import { contradictsOrder } from './contradicts-order';
import { extractFacts } from './extract-facts';

const order = { drug_name: 'lisinopril', status: 'CHANGED', dosage: { quantity: 20, unit: 'MG', raw_value: null } } as MedicationOrder;
const contradicted = (text: string, loinc = '10160-0', orders = [order], title = '') => {
  const facts = extractFacts(text);
  return facts.filter((f) => contradictsOrder(f, facts, { loinc, title }, orders)).map((f) => f.key);
};

describe('contradictsOrder', () => {
  it('finds a dose in the medication list or plan that is not the changed order\'s', () => {
    expect(contradicted('Lisinopril 10 mg daily.')).toEqual(['10 mg']);
    expect(contradicted('Lisinopril 10 mg daily.', '51847-2')).toEqual(['10 mg']);
  });

  it('accepts the change written as a change, and the dose the order has', () => {
    expect(contradicted('Increase lisinopril from 10 mg to 20 mg daily.')).toEqual([]);
    expect(contradicted('Lisinopril 20 mg daily.')).toEqual([]);
  });

  it('reads a note without LOINC codes by its headings', () => {
    expect(contradicted('Lisinopril 10 mg daily.', '', [order], 'MEDICATIONS')).toEqual(['10 mg']);
    expect(contradicted('Lisinopril 10 mg daily.', '', [order], 'HISTORY OF PRESENT ILLNESS')).toEqual([]);
  });

  it('leaves the history alone, and drugs with no new or changed order', () => {
    expect(contradicted('She takes lisinopril 10 mg daily.', '10164-2')).toEqual([]);
    expect(contradicted('Lisinopril 10 mg daily.', '10160-0', [{ ...order, status: 'CONTINUED' }])).toEqual([]);
  });
});
