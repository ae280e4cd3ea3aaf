import { describe, expect, it } from 'vitest';
import { noteMatch } from './note-match';

const summary = [
  { title: 'History', loinc_code: '10164-2', content: 'Cough and fever for two weeks.' },
  {
    title: 'Plan',
    loinc_code: '18776-5',
    content: 'Blood pressure is above goal on the current regimen today. Start Lisinopril 10 mg daily and recheck the blood pressure in four weeks at the clinic.',
  },
];

describe('noteMatch', () => {
  it('names the first section containing the text, case-insensitively, with words either side', () => {
    const m = noteMatch(summary, 'lisinopril');
    expect(m).toMatchObject({ section: 'Plan', loinc_code: '18776-5' });
    expect(m!.snippet).toContain('Start Lisinopril 10 mg daily');
    expect(m!.snippet.startsWith('… ')).toBe(true);
    expect(m!.snippet.endsWith(' …')).toBe(true);
  });

  it('gives the whole content when it is short, and null when nothing matches or there is no note', () => {
    expect(noteMatch(summary, 'fever')).toEqual({ section: 'History', loinc_code: '10164-2', snippet: 'Cough and fever for two weeks.' });
    expect(noteMatch(summary, 'metformin')).toBeNull();
    expect(noteMatch(null, 'fever')).toBeNull();
  });
});
