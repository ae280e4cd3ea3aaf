import { describe, expect, it } from 'vitest';
import { normaliseForMatching } from './normalise-for-matching';

describe('normaliseForMatching', () => {
  it('lower-cases and writes spoken numbers and units the way notes do', () => {
    expect(normaliseForMatching('Ten milligrams')).toBe('10 mg');
    expect(normaliseForMatching('One twenty over eighty')).toBe('120/80');
    expect(normaliseForMatching('twenty')).toBe('20');
  });

  it('names a drug by its RxNorm ingredient whatever brand or spoken name was used', () => {
    expect(normaliseForMatching('Zestril 20 mg')).toBe(normaliseForMatching('lisinopril twenty milligrams'));
    expect(normaliseForMatching('some Tylenol')).toBe('some acetaminophen');
  });

  it('stems words so inflections match', () => {
    expect(normaliseForMatching('She reports walking daily')).toBe(normaliseForMatching('she reported walks daily'));
  });

  it('keeps a percent sign and a fraction as tokens', () => {
    expect(normaliseForMatching('SpO2 98%, pain 7 out of 10').split(' ')).toEqual(['spo2', '98', '%', 'pain', '7/10']);
  });
});
