import { describe, expect, it } from 'vitest';
import { toDigitsAndUnits } from './to-digits-and-units';

describe('toDigitsAndUnits', () => {
  it('writes spoken numbers as digits', () => {
    expect(toDigitsAndUnits('Twenty')).toBe('20');
    expect(toDigitsAndUnits('five hundred milligrams')).toBe('500 mg');
    expect(toDigitsAndUnits('ten milligrams of lisinopril')).toBe('10 mg of lisinopril');
  });

  it('reads blood pressure said in the clinic way', () => {
    expect(toDigitsAndUnits('one twenty over eighty')).toBe('120/80');
    expect(toDigitsAndUnits('one fifty two over ninety four')).toBe('152/94');
    expect(toDigitsAndUnits('BP 120 / 80 mmHg')).toBe('bp 120/80 mmhg');
  });

  it('abbreviates units and their spoken synonyms', () => {
    expect(toDigitsAndUnits('50 micrograms')).toBe('50 mcg');
    expect(toDigitsAndUnits('500mg')).toBe('500 mg');
    expect(toDigitsAndUnits('ninety eight percent')).toBe('98 %');
    expect(toDigitsAndUnits('98%')).toBe('98 %');
    expect(toDigitsAndUnits('ten units of insulin')).toBe('10 units of insulin');
  });

  it('reads decimals, scores, ages, counts and intervals', () => {
    expect(toDigitsAndUnits('zero point four milligrams')).toBe('0.4 mg');
    expect(toDigitsAndUnits('seven out of ten')).toBe('7/10');
    expect(toDigitsAndUnits('a 45 -year-old')).toBe('a 45 year old');
    expect(toDigitsAndUnits('take one tablet')).toBe('take 1 tablet');
    expect(toDigitsAndUnits('follow up in a month')).toBe('follow up in 1 month');
    expect(toDigitsAndUnits('see you next week')).toBe('see you in 1 week');
    expect(toDigitsAndUnits('1,000 units')).toBe('1000 units');
  });

  it('leaves "one" as a word where it is a pronoun', () => {
    expect(toDigitsAndUnits('the right one')).toBe('the right one');
  });
});
