import { describe, expect, it } from 'vitest';
import { contextEntries } from './context-entries';

describe('contextEntries', () => {
  it('turns what the session knew into entries with their facts', () => {
    const out = contextEntries({
      emrContext: { medications: [{ name: 'Zestril 10 mg' }], problems: [{ name: 'sugar problem', code: 'E11.9' }] },
      contextDiagnoses: [{ codes: [{ code: 'I10', description: 'Essential (primary) hypertension', type: 'ICD10' }] }],
      clinicianText: ['Return in 2 weeks.'],
    });
    expect(out.map((e) => e.id)).toEqual(['context:emr.medications[0]', 'context:emr.problems[0]', 'context:diagnoses[0]', 'context:clinician[0]']);
    expect(out.map((e) => e.facts.map((f) => `${f.kind}:${f.key}`))).toEqual([['drug:lisinopril', 'dose:10 mg'], ['problem:E11'], ['problem:I10'], ['measurement:2 week']]);
  });
});
