import { describe, expect, it } from 'vitest';
import { spelledWord } from './ffi';

describe('the dictionary spelling a transcript shows', () => {
  it('drops the alternate-pronunciation suffix and writes a plural possessive as the plural', () => {
    expect(spelledWord('read(2)')).toBe('read');
    expect(spelledWord("months'")).toBe('months');
    expect(spelledWord("patients'")).toBe('patients');
    expect(spelledWord("don't")).toBe("don't");
    expect(spelledWord("patient's")).toBe("patient's");
    expect(spelledWord('metformin')).toBe('metformin');
  });
});
