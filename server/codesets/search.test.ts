import { describe, expect, it } from 'vitest';
import { builtinCodeIndex, defaultCodeIndex } from './index';

// The clinician's search boxes for editing structured data (issue 29 item 5).
describe.each([
  ['built-in', builtinCodeIndex()],
  ['official files or built-in', defaultCodeIndex()],
])('code search (%s)', (_name, codes) => {
  it('finds an ICD-10-CM code by its code, with or without the dot', () => {
    expect(codes.searchIcd10('E11.9', 5)[0]).toEqual({ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' });
    expect(codes.searchIcd10('e119', 5)[0]?.code).toBe('E11.9');
  });

  it('finds diagnoses by every word of the description, broader codes first', () => {
    const hits = codes.searchIcd10('hypertension', 10);
    expect(hits[0]).toMatchObject({ code: 'I10' });
    const knee = codes.searchIcd10('osteoarthritis knee', 20);
    expect(knee.length).toBeGreaterThan(0);
    for (const h of knee) expect(h.description.toLowerCase()).toMatch(/osteoarthritis.*knee|knee.*osteoarthritis/);
  });

  it('finds RxNorm ingredients by name, the exact ingredient first, and looks one up by RXCUI', () => {
    const [first] = codes.searchRx('metformin', 5, ['IN']);
    expect(first).toMatchObject({ rxcui: '6809', name: 'metformin', tty: 'IN' });
    expect(codes.rxByCui('6809')?.name).toBe('metformin');
    expect(codes.rxByCui('no-such')).toBeUndefined();
  });

  it('answers nothing for an empty query and respects the limit', () => {
    expect(codes.searchIcd10('  ', 5)).toEqual([]);
    expect(codes.searchRx('', 5, ['IN'])).toEqual([]);
    expect(codes.searchIcd10('diabetes', 3)).toHaveLength(3);
  });
});
