import { describe, expect, it } from 'vitest';
import { extractFacts } from './extract-facts';

const kinds = (text: string) => extractFacts(text).map((f) => `${f.kind}:${f.key}`);

describe('extractFacts', () => {
  it('reads a medication line: drug, dose tied to it, frequency', () => {
    expect(kinds('Lisinopril 10 mg daily.')).toEqual(['drug:lisinopril', 'dose:10 mg', 'frequency:ONE_A_DAY']);
    expect(extractFacts('Lisinopril 10 mg daily.').find((f) => f.kind === 'dose')?.drug).toBe('lisinopril');
    expect(kinds('Acetaminophen 500 mg every 6 hours as needed.')).toEqual([
      'drug:acetaminophen', 'dose:500 mg', 'measurement:6 hour', 'frequency:EVERY_6_HOURS', 'frequency:AS_NEEDED',
    ]);
  });

  it('reads brand names as the RxNorm ingredient and spoken numbers as digits', () => {
    expect(kinds('Continue Glucophage five hundred milligrams twice a day.')).toEqual(['drug:metformin', 'dose:500 mg', 'frequency:TWO_A_DAY']);
  });

  it('reads vital signs, percentages and follow-up intervals with their units', () => {
    expect(kinds('Blood pressure: 152/94 mmHg. SpO2 98%.')).toEqual(['measurement:152/94 mmhg', 'measurement:98 %']);
    expect(kinds('The patient will follow up with me in 4 weeks.')).toEqual(['measurement:4 week']);
  });

  it('reads problems by ICD-10-CM category and their negations', () => {
    expect(kinds('Hypertension.')).toEqual(['problem:I10']);
    expect(kinds('History of high blood pressure.')).toEqual(['problem:I10']);
    expect(kinds('Denies chest pain, shortness of breath.')).toEqual(['negation:R07', 'negation:R06']);
    expect(kinds('No fever or chills he gets headaches pretty often.')).toContain('problem:R51');
    expect(kinds("I don't have quite as much shortness of breath.")).toEqual(['problem:R06']);
    expect(extractFacts('We will get an ultrasound to rule out gallstones.')).toEqual([expect.objectContaining({ kind: 'problem', key: 'K80', hedged: true }), expect.objectContaining({ kind: 'test' })]);
  });

  it('marks a family member\'s condition and an allergic reaction', () => {
    expect(extractFacts('Her mother has diabetes.')[0]).toMatchObject({ kind: 'problem', key: 'E11', family: true });
    const allergy = extractFacts('Allergic to penicillin, which causes a rash.');
    expect(allergy.map((f) => `${f.kind}:${f.key}`)).toEqual(['allergy:allergy:penicillin v', 'problem:L30']);
    expect(allergy[1].reaction).toBe(true);
  });

  it('reads no known allergies as an allergy fact, not a negated rhinitis', () => {
    expect(kinds('No known drug allergies.')).toEqual(['allergy:allergy:none']);
  });

  it('reads tests and agreement claims', () => {
    expect(kinds('We will check a basic metabolic panel and a chest x-ray.')).toEqual(['test:bmp', 'test:x-ray']);
    expect(kinds('The patient understands and agrees with the recommended medical treatment plan.')).toEqual(['agreement:agreement']);
  });

  it('ignores an [unclear] marker rather than reading it', () => {
    expect(kinds('The patient reports [unclear] at home.')).toEqual([]);
  });
});
