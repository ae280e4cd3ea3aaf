/**
 * A diabetes follow-up recorded in Chromium in Festival voices (27 Nov), as the recogniser gave it: lower case,
 * no punctuation. Two faults a clinician would have had to fix by hand:
 * - "Are you still taking the metformin?" "yes metformin one thousand milligrams twice a day": the question's
 *   mention came first and was kept, so the order and the Medications section had no dose or frequency.
 * - The allergy answer came out unsure ("[unclear] hives"): the coded allergy's substance was the marker word
 *   ("unclearspan hives") and the Allergies section read "Hives causes hives."
 * - The examination had no cue the engine knew ("your feet look good …", a blood pressure "today" before it): the
 *   Physical Examination section was empty and both were filed as the diabetes' medical reasoning.
 */
import { describe, expect, it } from 'vitest';
import { UNCLEAR } from './unclear';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const engine = new EmbeddedNotesEngine();
const note = (lines: string[]) =>
  engine.generateSync({ transcript: dialogueToTranscript(lines.join('\n')), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const visit = (medAnswer: string, allergyAnswer: string) =>
  note([
    '[doctor] good afternoon what brings you in today',
    '[patient] my blood sugars have been running high around two hundred in the mornings and i have been really thirsty',
    '[doctor] are you still taking the metformin',
    `[patient] ${medAnswer}`,
    '[doctor] any allergies to medications',
    `[patient] ${allergyAnswer}`,
    '[doctor] your blood pressure today is one fifty over ninety two',
    '[doctor] your feet look good with no ulcers and sensation is intact',
    '[doctor] i think your type two diabetes is not well controlled and your blood pressure is also high',
    '[doctor] continue the metformin. i will start lisinopril ten milligrams once a day for your blood pressure',
    '[doctor] we will check a hemoglobin a1c and a basic metabolic panel today and i will see you back in three months',
  ]);
const section = (r: ReturnType<typeof visit>, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
const metformin = (r: ReturnType<typeof visit>) =>
  [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values].find((o) => o.drug_name === 'metformin');

describe('a drug asked about, then its dose given in the answer', () => {
  it('is ordered with the dose and frequency of the answer, and listed with them', () => {
    for (const answer of ['yes metformin one thousand milligrams twice a day', 'i take metformin one thousand milligrams twice a day']) {
      const r = visit(answer, 'sulfa drugs give me hives');
      expect(metformin(r), answer).toMatchObject({ dosage: { quantity: 1000, raw_value: '1000 milligrams' }, frequency: { raw_value: 'twice a day' } });
      expect(section(r, '10160-0'), answer).toContain('Metformin 1000 mg twice daily.');
    }
  });

  it('keeps what the question alone said when the answer gives no dose', () => {
    const r = visit('yes i am', 'no');
    expect(metformin(r)?.dosage.quantity ?? null).toBeNull();
    expect(section(r, '10160-0')).toMatch(/^Metformin\./m);
  });
});

describe('an allergy answer the recogniser was unsure of', () => {
  it('codes no substance from the unsure words or the reaction, and writes no "Hives causes hives"', () => {
    const r = visit('yes metformin one thousand milligrams twice a day', `${UNCLEAR} hives`);
    expect(r.structured_data.allergies.values).toEqual([]);
    expect(section(r, '48765-2')).not.toMatch(/hives causes hives|unclear/i);
  });

  it('still codes an allergy said clearly in the same place', () => {
    const r = visit('yes metformin one thousand milligrams twice a day', 'yes penicillin gives me a rash');
    expect(r.structured_data.allergies.values).toEqual([expect.objectContaining({ substance: 'penicillin', reaction: 'rash' })]);
    expect(section(r, '48765-2')).toBe('Penicillin causes rash.');
  });
});

describe('an examination said without an exam cue', () => {
  const r = visit('yes metformin one thousand milligrams twice a day', 'sulfa drugs give me hives');
  it('files the finding and the blood pressure measured today in the Physical Examination', () => {
    expect(section(r, '29545-1')).toMatch(/Blood pressure: 150\/92 mmHg\./);
    expect(section(r, '29545-1')).toMatch(/feet look good with no ulcers and sensation is intact/i);
  });
  it('keeps the assessment ("i think your diabetes is not well controlled") and the exam out of each other', () => {
    expect(section(r, '29545-1')).not.toMatch(/diabetes|I think/i);
    expect(section(r, '51847-2')).not.toMatch(/feet|150\/92/i);
  });
  it('takes no blood pressure read at home as measured in the room', () => {
    const home = note(['[doctor] what brings you in today', '[patient] my blood pressure at home today was one sixty over a hundred', '[doctor] your feet look good with no ulcers', '[doctor] i think your blood pressure is not well controlled', '[doctor] i will start lisinopril ten milligrams once a day']);
    expect(home.summary.find((s) => s.loinc_code === '29545-1')?.content ?? '').not.toMatch(/160\/100/);
  });
});

describe('the assessment and plan of the visit said cleanly (the recogniser\'s own words: recorded-diabetes-plan.test.ts)', () => {
  const r = visit('yes metformin one thousand milligrams twice a day', 'sulfa drugs give me hives');
  const plan = section(r, '51847-2');
  it('has both problems, each with its own drug, and codes both with the A1c and BMP orders', () => {
    expect(plan).toMatch(/1\. Type 2 diabetes\.[\s\S]*Continue the metformin 1000 mg twice daily\.[\s\S]*2\. Hypertension\.[\s\S]*start lisinopril 10 mg daily/);
    expect(r.structured_data.diagnoses.values.map((d) => d.codes[0].code)).toEqual(['E11.9', 'I10']);
    expect(r.structured_data.orders.service_orders.values.map((o) => o.code?.code)).toEqual(['4548-4', '51990-0']);
  });
});
