import { describe, expect, it } from 'vitest';
import { cleanUtterance, wordsToDigits } from './text';

describe('spoken numbers', () => {
  it('reads a hundreds digit said alone, as in blood pressures ("one sixty nine over seventy four")', () => {
    expect(wordsToDigits('call nine one one or go to the emergency room')).toBe('call 911 or go to the emergency room');
    expect(cleanUtterance('call nine one one right away').trim()).toBe('call 911 right away');
    expect(wordsToDigits('it is one sixty nine over seventy four')).toBe('it is 169 over 74');
    expect(wordsToDigits('one thirty two over eighty')).toBe('132 over 80');
    expect(wordsToDigits('one fifteen over seventy')).toBe('115 over 70');
    expect(wordsToDigits('two thousand eighteen')).toBe('2018');
    expect(wordsToDigits('one of them')).toBe('one of them');
  });

  it('converts a number that ends at punctuation and keeps the punctuation', () => {
    expect(wordsToDigits('her temperature was ninety seven.')).toBe('her temperature was 97.');
    expect(wordsToDigits('one twenty over eighty, and')).toBe('120 over 80, and');
    expect(wordsToDigits('about one.')).toBe('about one.');
  });
});

describe('restarted numbers', () => {
  it('reads a dose said twice once ("five hundred five hundred milligrams")', () => {
    expect(wordsToDigits(cleanUtterance('naprosyn five hundred five hundred milligrams twice a day'))).toBe('naprosyn 500 milligrams twice a day');
  });
});
