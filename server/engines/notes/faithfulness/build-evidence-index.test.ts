import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from '../embedded/dialogue';
import { buildEvidenceIndex } from './build-evidence-index';

const t = dialogueToTranscript(`[doctor] Any chest pain or shortness of breath?
[patient] No.
[doctor] Do you have any allergies?
[patient] Penicillin, it gives me hives. My dad has diabetes.
[doctor] Any cough?
[patient] I guess.
[doctor] So we will start metformin.
[patient] Sounds good.`);

describe('buildEvidenceIndex', () => {
  const entries = buildEvidenceIndex(t, { visit: { chief_complaint: 'knee pain' } });
  const facts = (id: string) => entries.find((e) => e.id === id)!.facts;

  it('gives a question the polarity of its answer', () => {
    expect(facts('t1').map((f) => [f.key, f.polarity])).toEqual([
      ['R07', { pos: false, neg: true }],
      ['R06', { pos: false, neg: true }],
    ]);
    // An answer that is neither yes nor no states it; a denial needs a "no".
    expect(facts('t5')[0].polarity).toEqual({ pos: true, neg: false });
  });

  it('marks a symptom said about an allergy as its reaction and a relative\'s condition as family', () => {
    const t4 = facts('t4');
    expect(t4.find((f) => f.key === 'L50')).toMatchObject({ reaction: true });
    expect(t4.find((f) => f.key === 'E11')).toMatchObject({ family: true });
  });

  it('notes where the patient agrees, and the words of each entry normalised', () => {
    expect(entries.filter((e) => e.agrees).map((e) => e.id)).toEqual(['t8']);
    expect(entries.find((e) => e.id === 't7')!.tokens.has('metformin')).toBe(true);
  });

  it('adds the session context as entries of its own', () => {
    expect(entries.at(-1)).toMatchObject({ id: 'context:visit.chief_complaint', role: 'CONTEXT' });
    expect(entries.at(-1)!.facts.map((f) => f.key)).toEqual(['M25']);
  });
});
