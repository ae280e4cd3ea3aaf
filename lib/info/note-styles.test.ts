import { describe, expect, it } from 'vitest';
import { LOINC_CODES, SPECIALTY_CODES } from './lists';
import { BUILTIN_STYLES, BUILTIN_STYLE_IDS, SPECIALTY_DEFAULT_STYLE, specialtyDefaultStyle } from './note-styles';

describe('built-in note styles', () => {
  it('file each section under a listed LOINC code, once per style, gathering listed codes', () => {
    for (const id of BUILTIN_STYLE_IDS) {
      const style = BUILTIN_STYLES[id];
      const codes = style.sections.map((s) => s.loinc);
      expect(new Set(codes).size, id).toBe(codes.length);
      for (const s of style.sections) for (const c of [s.loinc, ...(s.parts ?? [])]) expect(LOINC_CODES, `${id} ${c}`).toContain(c);
      // No engine section is gathered twice in one style, so no sentence appears twice.
      const parts = style.sections.flatMap((s) => s.parts ?? [s.loinc]);
      expect(new Set(parts).size, id).toBe(parts.length);
    }
  });

  it('suggest a style per specialty, SOAP otherwise', () => {
    for (const code of Object.keys(SPECIALTY_DEFAULT_STYLE)) expect(SPECIALTY_CODES).toContain(code);
    expect(specialtyDefaultStyle('HOSPITAL_MEDICINE')).toBe('HP');
    expect(specialtyDefaultStyle('CARDIOLOGY')).toBe('PROGRESS');
    expect(specialtyDefaultStyle('URGENT_CARE')).toBe('APSO');
    expect(specialtyDefaultStyle('FAMILY_MEDICINE')).toBe('SOAP');
    expect(specialtyDefaultStyle(undefined)).toBe('SOAP');
  });
});
