import { describe, expect, it } from 'vitest';
import type { NoteResult, TranscriptLine } from '../types';
import { EmbeddedNotesEngine } from './index';

// The visit of issue 14, as said, and as the recogniser heard it (lower case, no punctuation, misheard spans).
const SAID: Array<[TranscriptLine['speaker'], string]> = [
  ['CLINICIAN', 'Good morning. What brings you in today?'],
  ['PATIENT', 'I am here for my blood pressure and my sugar.'],
  ['CLINICIAN', 'You have hypertension and type two diabetes. Are you taking metformin five hundred milligrams twice a day?'],
  ['PATIENT', 'Yes, I take it every day.'],
  ['CLINICIAN', 'Any chest pain or shortness of breath?'],
  ['PATIENT', 'No.'],
  ['CLINICIAN', 'Your blood pressure today is one fifty eight over ninety six. I will start lisinopril ten milligrams once a day.'],
  ['CLINICIAN', 'Assessment: uncontrolled hypertension. Plan: start lisinopril, check a basic metabolic panel, and follow up in four weeks.'],
  ['PATIENT', 'Okay, thank you.'],
];
const HEARD: Array<[TranscriptLine['speaker'], string]> = [
  ['CLINICIAN', 'good morning what brings you in today'],
  ['PATIENT', 'i am here for my blood pressure and my sugar'],
  ['CLINICIAN', 'you have hypertension and type two diabetes are you taking metformin five hundred milligrams twice a day'],
  ['PATIENT', 'yes i take it every day'],
  ['CLINICIAN', 'any chest pain or shortness of breath'],
  ['PATIENT', 'no'],
  ['CLINICIAN', 'i will start lisinopril ten want and any'],
  ['CLINICIAN', 'assessment uncontrolled hypertension plan start lisinopril to do a stick with body panel and follow up in four weeks'],
  ['PATIENT', 'okay thank you'],
];

function lines(turns: Array<[TranscriptLine['speaker'], string]>): TranscriptLine[] {
  return turns.map(([speaker, text], i) => ({ transcriptId: `t${i + 1}`, speaker, text, startMs: i * 5000, endMs: i * 5000 + 4000 }));
}

function generate(transcript: TranscriptLine[]): NoteResult {
  return new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
}

const section = (r: NoteResult, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
const orders = (r: NoteResult) => [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values];

describe('the issue 14 visit, from the words as said', () => {
  const r = generate(lines(SAID));

  it('codes hypertension and type 2 diabetes', () => {
    const codes = r.structured_data.diagnoses.values.map((d) => d.codes[0].code);
    expect(codes).toContain('I10');
    expect(codes.some((c) => c.startsWith('E11'))).toBe(true);
  });

  it('lists metformin 500 mg twice a day (taken) and lisinopril 10 mg once a day (new) as complete orders', () => {
    const values = r.structured_data.orders.medication_orders.values;
    expect(values.find((o) => o.drug_name === 'metformin')).toMatchObject({ status: 'ACTIVE', dosage: { quantity: 500, unit: 'MG' }, frequency: { structured_value: 'TWO_A_DAY' } });
    expect(values.find((o) => o.drug_name === 'lisinopril')).toMatchObject({ status: 'NEW', dosage: { quantity: 10, unit: 'MG' }, frequency: { structured_value: 'ONE_A_DAY' } });
    expect(r.structured_data.orders.medication_orders.partial_values).toEqual([]);
  });

  it('routes the dictated assessment and plan: problem heading, treatment, testing, follow-up; nothing in RESULTS', () => {
    const ap = section(r, '51847-2');
    expect(ap).toMatch(/^1\. Uncontrolled hypertension\.$/m);
    expect(ap).toContain('Medical Treatment: Start lisinopril 10 mg once daily.');
    expect(ap).toContain('Additional Testing: Check a basic metabolic panel.');
    expect(ap).toContain('The patient will follow up with me in 4 weeks.');
    expect(section(r, '30954-2')).toBe('');
    // No section carries the raw utterance.
    for (const s of r.summary) expect(s.content).not.toMatch(/Plan: start lisinopril|Assessment: uncontrolled/i);
  });

  it('writes the confirmed medication into the history in note form', () => {
    expect(section(r, '10164-2')).toContain('is taking metformin 500 mg twice daily');
    expect(section(r, '10164-2')).not.toMatch(/takes it every day/);
  });
});

describe('the issue 14 visit, as the recogniser heard it', () => {
  const r = generate(lines(HEARD));

  it('keeps lisinopril with the dose and frequency missing rather than guessing them', () => {
    const lis = orders(r).filter((o) => o.drug_name === 'lisinopril');
    expect(lis).toHaveLength(1);
    expect(lis[0]).toMatchObject({ dosage: { quantity: null, unit: null }, frequency: { structured_value: null } });
    expect(r.structured_data.orders.medication_orders.partial_values.map((o) => o.drug_name)).toContain('lisinopril');
    expect(section(r, '51847-2')).not.toMatch(/lisinopril 10\b/i);
  });

  it('still finds metformin 500 mg twice a day, hypertension and diabetes, and the follow-up', () => {
    expect(r.structured_data.orders.medication_orders.values.find((o) => o.drug_name === 'metformin')).toMatchObject({
      dosage: { quantity: 500, unit: 'MG' },
      frequency: { structured_value: 'TWO_A_DAY' },
    });
    const codes = r.structured_data.diagnoses.values.map((d) => d.codes[0].code);
    expect(codes).toContain('I10');
    expect(codes.some((c) => c.startsWith('E11'))).toBe(true);
    expect(section(r, '51847-2')).toContain('The patient will follow up with me in 4 weeks.');
    expect(section(r, '51847-2')).toMatch(/^1\. Uncontrolled hypertension\.$/m);
    expect(section(r, '30954-2')).toBe('');
  });
});

describe('an order said without its sig', () => {
  it('is listed in the medications section with the missing fields named, and kept in partial_values', () => {
    const r = generate(lines([
      ['CLINICIAN', 'Your knee is swollen and tender.'],
      ['CLINICIAN', 'Assessment: right knee sprain. Plan: start meloxicam and follow up in two weeks.'],
    ]));
    expect(r.structured_data.orders.medication_orders.partial_values.find((o) => o.drug_name === 'meloxicam')).toMatchObject({ dosage: { quantity: null }, frequency: { structured_value: null } });
    expect(section(r, '10160-0')).toContain('Meloxicam (dose and frequency not stated).');
  });
});
