import { describe, expect, it } from 'vitest';
import { findMeasurements } from './find-measurements';

describe('findMeasurements', () => {
  it('reads each number with the unit said after it', () => {
    expect(findMeasurements('bp 120/80 mmhg, spo2 98 %, temp 98.6 degrees, follow up in 4 weeks').map((m) => `${m.value}|${m.unit}`)).toEqual([
      '120/80|mmhg', '98|%', '98.6|degrees', '4|week',
    ]);
  });

  it('ties a dose to the drug named before it, or after "of"', () => {
    expect(findMeasurements('increase lisinopril from 10 mg to 20 mg daily').map((m) => [m.value, m.drug])).toEqual([
      ['10', 'lisinopril'], ['20', 'lisinopril'],
    ]);
    expect(findMeasurements('500 mg of metformin')[0].drug).toBe('metformin');
    expect(findMeasurements('lisinopril 10 mg and metformin 500 mg').map((m) => m.drug)).toEqual(['lisinopril', 'metformin']);
  });

  it('reads an age and a bare number', () => {
    expect(findMeasurements('a 45 year old male')[0]).toMatchObject({ value: '45', unit: 'year-old' });
    expect(findMeasurements('heart rate 72')[0]).toMatchObject({ value: '72', unit: '' });
  });

  it('takes no ordinal or code for a number', () => {
    expect(findMeasurements('on january 20th her a1c and b12')).toEqual([]);
  });
});
