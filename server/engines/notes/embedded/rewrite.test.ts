import { describe, expect, it } from 'vitest';
import { rewriteText } from './rewrite';

const TEXT =
  'The patient reports that she has been having right knee pain for 2 weeks. She denies fever. It was noted that she has HTN and takes lisinopril 20 mg daily. ' +
  'Exam shows tenderness to palpation over the medial aspect of the right knee with mild edema. The patient reports that she has been having right knee pain for 2 weeks.';

/** Facts every rewrite must keep: numbers, drugs, doses, laterality and negations. */
function expectFactsKept(out: string) {
  for (const fact of ['2 weeks', 'lisinopril', '20', 'right knee']) expect(out.toLowerCase()).toContain(fact);
  expect(out).toMatch(/\b(denies|does not have|no)\b[^.]*fever/i);
}

describe('rewrite', () => {
  it('CONCISE removes filler and repetition and is shorter', () => {
    const out = rewriteText(TEXT, 'CONCISE');
    expect(out.length).toBeLessThan(TEXT.length * 0.85);
    expect(out).not.toMatch(/It was noted that|reports that/);
    expect(out.match(/knee pain for 2 weeks/g)).toHaveLength(1);
    expectFactsKept(out);
  });
  it('VERBOSE expands abbreviations and telegraphic findings and is longer', () => {
    const src = 'HTN, on lisinopril 20 mg BID. Denies SOB. Right knee: ROM limited.';
    const out = rewriteText(src, 'VERBOSE');
    expect(out.length).toBeGreaterThan(src.length);
    expect(out).toMatch(/\bHypertension\b/i);
    expect(out).toContain('twice a day');
    expect(out).toContain('The patient denies shortness of breath.');
    expect(out).toContain('range of motion');
    expect(out).toContain('lisinopril 20 mg');
  });
  it('PATIENT_FRIENDLY replaces jargon with plain words and keeps the facts', () => {
    const out = rewriteText(TEXT, 'PATIENT_FRIENDLY');
    expect(out).toContain('high blood pressure');
    expect(out).toMatch(/pressing/);
    expect(out).toMatch(/inner/);
    expect(out).toMatch(/swelling/);
    expect(out).not.toMatch(/\bpalpation\b|\bedema\b|\bHTN\b|\bmedial\b/);
    expectFactsKept(out);
  });
});
