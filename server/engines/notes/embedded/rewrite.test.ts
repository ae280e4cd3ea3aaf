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

  // Issue 29: PATIENT_FRIENDLY only added "(milligrams)", CONCISE returned the input unchanged.
  const PLAN =
    'Brian is a 58-year-old male with a past medical history significant for congestive heart failure, and high blood pressure who presents to the clinic today for the evaluation of follow-up of his chronic problems.\n\n1. Congestive heart failure.\n' +
    '• Medical Reasoning: I think he is retaining fluid. I want him to weigh himself every day.\n• Medical Treatment: We will increase his lasix to 80 mg daily.\n' +
    '• Patient Education and Counseling: I discussed the diagnosis and treatment options for congestive heart failure with the patient.\n\nPatient Agreements: The patient understands and agrees with the recommended medical treatment plan.';
  it('PATIENT_FRIENDLY uses everyday words, splits long sentences and keeps every number and drug', () => {
    const out = rewriteText(PLAN, 'PATIENT_FRIENDLY');
    expect(out).not.toContain('(milligrams)');
    expect(out).toContain('came in today for');
    expect(out).toContain('holding on to water');
    expect(out).toContain('What we talked about:');
    for (const fact of ['58', 'lasix', '80 mg']) expect(out).toContain(fact);
  });
  it('CONCISE shortens an engine plan by at least a quarter and keeps numbers, drugs and the hedge', () => {
    const out = rewriteText(PLAN, 'CONCISE');
    expect(out.length).toBeLessThan(PLAN.length * 0.75);
    for (const fact of ['58-year-old', 'lasix', '80 mg', 'CHF']) expect(out).toContain(fact);
    expect(out).toMatch(/likely retaining fluid/i);
  });
});
