/**
 * The recorded diabetes follow-up of recorded-diabetes-visit.test.ts, word for word as the recogniser gave it (27 Nov),
 * and the faults its Assessment and Plan had:
 * - "hemoglobin a one c n the basic metabolic panel": the spoken A1c lost its "c" as a cut-off fragment, so the note read
 *   "hemoglobin a one the basic metabolic panel" and no A1c order was coded (only the BMP).
 * - Hypertension was no problem and no diagnosis although the pressure was 150/92, the clinician said "your blood pressure
 *   is also higher" and started lisinopril "for your blood pressure"; the lisinopril was filed (and linked) under diabetes.
 * - "i think your type two diabetes is not well controlled and your blood pressure is also higher" was left out: "your
 *   type 2 diabetes" was too long a subject for the hedge to be written ("… is likely …"), so nothing assessed diabetes.
 * - "continue the metformin", said on its own, was shorter than the plan's four-word floor for a remark and was left out.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptLine } from '../types';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';
import { cleanUtterance } from './text';
import { heard } from '../../../test/heard-line';
import { checkNoteFaithfulness } from '../faithfulness';

const RECOGNISED = [
  '[doctor] good afternoon what brings you in today',
  '[patient] my blood sugars have been running high for around two hundred in the mornings and i have been really thirsty',
  '[doctor] are you still take on the metformin',
  '[patient] yes metformin one thousand milligrams twice a day',
  '[doctor] any allergies to medications',
  '[patient] self a drags kidney hives',
  '[doctor] your blood pressure today is one fifty over ninety two',
  '[doctor] your feet look good with no ulcers and sensation is intact',
  '[doctor] i think your type two diabetes is not well controlled and your blood pressure is also higher',
  '[doctor] continue the metformin',
  '[doctor] i will start lisinopril ten milligrams once a day for your blood pressure',
  '[doctor] we will check a hemoglobin a one c n the basic metabolic panel today and i will see you back in three months',
];

const engine = new EmbeddedNotesEngine();
const generate = (lines: string[]) =>
  engine.generateSync({ transcript: dialogueToTranscript(lines.join('\n')), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const r = generate(RECOGNISED);
const plan = r.summary.find((s) => s.loinc_code === '51847-2')?.content ?? '';

describe('an A1c said letter by letter', () => {
  it('is cleaned to one test name, "a1c", and its "c" is not dropped as a fragment', () => {
    expect(cleanUtterance('we will check a hemoglobin a one c n the basic metabolic panel')).toBe('we will check a hemoglobin a1c and the basic metabolic panel');
    expect(cleanUtterance('your h b a one c was seven')).toBe('your hba1c was seven');
    expect(cleanUtterance('an a-1-c in three months')).toBe('an a1c in three months');
    // The second recording heard the "c and" as one word, "cm" (27 Nov, the visit tried again).
    expect(cleanUtterance('we will check a hemoglobin a one cm the basic metabolic panel')).toBe('we will check a hemoglobin a1c and the basic metabolic panel');
    expect(cleanUtterance('h b a one c m a lipid panel')).toBe('hba1c and a lipid panel');
  });
  it('reads whole in the plan and is coded as the A1c lab order beside the BMP', () => {
    expect(plan).toMatch(/hemoglobin a1c and the basic metabolic panel/i);
    expect(plan).not.toMatch(/a one\b/i);
    const loinc = r.structured_data.orders.service_orders.values.map((o) => o.code?.code);
    expect(loinc).toEqual(expect.arrayContaining(['4548-4', '51990-0']));
  });
  it('keeps a lone letter that is no A1c out as before ("i f felt")', () => {
    expect(cleanUtterance('i f felt dizzy')).toBe('i felt dizzy');
  });
});

describe('a short order to continue a drug', () => {
  const problem = (name: RegExp) => plan.split(/\n(?=\d+\. )/).find((b) => name.test(b.split('\n')[0])) ?? '';
  it('is in the plan, under the problem the drug treats, with the dose the patient gave', () => {
    expect(problem(/^\d+\. Type 2 diabetes/)).toMatch(/Medical Treatment: .*Continue (?:the )?metformin 1000 mg twice daily\./);
  });
  it('keeps the other short drug actions too, but not a short remark with no drug', () => {
    const note = generate([
      '[doctor] what brings you in today',
      '[patient] my knee has been hurting for a month',
      '[doctor] does it swell',
      '[patient] yes after i walk',
      '[doctor] your knee looks good with no redness',
      '[doctor] i think you have osteoarthritis of the right knee',
      '[doctor] stop the ibuprofen',
      '[doctor] keep walking daily',
      '[doctor] i will see you back in four weeks',
    ]).summary.find((s) => s.loinc_code === '51847-2')?.content ?? '';
    expect(note).toMatch(/Stop the ibuprofen\./);
    expect(note).not.toMatch(/keep walking/i);
  });
});

describe('a blood pressure said to be raised, and a drug for it started', () => {
  const problem = (name: RegExp) => plan.split(/\n(?=\d+\. )/).find((b) => name.test(b.split('\n')[0])) ?? '';
  it('makes hypertension a problem of the plan and a coded diagnosis (I10)', () => {
    expect(plan).toMatch(/^\d+\. Hypertension\.$/m);
    expect(r.structured_data.diagnoses.values.map((d) => d.codes[0].code)).toEqual(expect.arrayContaining(['E11.9', 'I10']));
  });
  it('files the lisinopril "for your blood pressure" under hypertension, not diabetes, and links the order to I10', () => {
    expect(problem(/^\d+\. Hypertension/)).toMatch(/start lisinopril 10 mg daily/i);
    expect(problem(/^\d+\. Type 2 diabetes/)).not.toMatch(/lisinopril/i);
    const lisinopril = r.structured_data.orders.medication_orders.values.find((o) => o.drug_name === 'lisinopril');
    expect(lisinopril?.linked_diagnosis_codes).toEqual(['I10']);
  });
  it('gives the diagnosis the sentences that imply it as evidence', () => {
    const i10 = r.structured_data.diagnoses.values.find((d) => d.codes[0].code === 'I10');
    expect(i10?.source_transcripts).toEqual(expect.arrayContaining(['t9', 't11']));
  });
  const visit = (lines: string[]) => {
    const g = generate(['[doctor] what brings you in today', '[patient] my knee has been hurting for a month', '[doctor] does it swell', '[patient] yes after i walk', ...lines]);
    return { codes: g.structured_data.diagnoses.values.map((d) => d.codes[0].code), plan: g.summary.find((s) => s.loinc_code === '51847-2')?.content ?? '' };
  };
  it('codes no hypertension for a raised pressure no drug treats, or one said not to be high', () => {
    for (const said of ['[doctor] your blood pressure is a little high today so we will recheck it next visit', "[doctor] i don't think your blood pressure is high so continue the lisinopril"]) {
      const v = visit(['[doctor] your knee looks good with no redness', '[doctor] i think you have osteoarthritis of the right knee', said, '[doctor] i will see you back in four weeks']);
      expect(v.codes, said).not.toContain('I10');
      expect(v.plan, said).not.toMatch(/hypertension/i);
    }
  });
  it('codes hypertension for an antihypertensive continued "for your blood pressure", but not for another drug', () => {
    const lines = (drug: string) => ['[doctor] your knee looks good with no redness', '[doctor] i think you have osteoarthritis of the right knee', `[doctor] continue the ${drug} for your blood pressure`, '[doctor] i will see you back in four weeks'];
    expect(visit(lines('amlodipine')).codes).toContain('I10');
    expect(visit(lines('ibuprofen')).codes).not.toContain('I10');
  });
});

describe('one assessment of two problems', () => {
  const problem = (name: RegExp) => plan.split(/\n(?=\d+\. )/).find((b) => name.test(b.split('\n')[0])) ?? '';
  it('is written as the hedge it was ("is likely") and each clause filed under the problem it names', () => {
    expect(problem(/^\d+\. Type 2 diabetes/)).toMatch(/Medical Reasoning: Their type 2 diabetes is likely not well controlled\.$/m);
    expect(problem(/^\d+\. Type 2 diabetes/)).not.toMatch(/blood pressure is/i);
    expect(problem(/^\d+\. Hypertension/)).toMatch(/Medical Reasoning: Their blood pressure is also higher\.$/m);
  });
});

/** The visit's lines again, now with the words the recogniser was unsure of, as the second recording (27 Nov) gave them. */
function heardUnsure(unsure: Record<number, string[]>): TranscriptLine[] {
  return RECOGNISED.map((line, i) => {
    const [, who, text] = /^\[(\w+)\] (.*)$/.exec(line)!;
    return heard(i + 1, who === 'doctor' ? 'CLINICIAN' : 'PATIENT', text, unsure[i]);
  });
}
const noteOf = (transcript: TranscriptLine[]) => engine.generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });

describe('an unsure last word of an assessment', () => {
  // "… and your blood pressure is also higher" with "higher" unsure: the note read "Their blood pressure is also."
  const r = noteOf(heardUnsure({ 8: ['higher'] }));
  const ap = r.summary.find((s) => s.loinc_code === '51847-2')!.content;
  it('leaves out the clause it would leave unfinished, keeps the clause before it, and lists it for the review', () => {
    expect(ap).not.toMatch(/\bis also\.|\balso\s*$/m);
    expect(ap).toMatch(/Medical Reasoning: Their type 2 diabetes is likely not well controlled\.$/m);
    expect(r.left_out).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'LOW_CONFIDENCE', text: expect.stringMatching(/blood pressure is also \[unclear\]/), source_transcripts: ['t9'] })]));
  });
  it('keeps hypertension, which the pressure and the lisinopril still show', () => {
    expect(ap).toMatch(/^\d+\. Hypertension\.$/m);
    expect(r.structured_data.diagnoses.values.map((d) => d.codes[0].code)).toContain('I10');
  });
});

describe('an unsure word inside a list of tests ordered', () => {
  // "we will check a hemoglobin a one [cm] the basic metabolic panel today …" with "cm" unsure: the plan read "We will
  // check a hemoglobin a one." and, in the browser, lost the sentence and both orders.
  const line = 'we will check a hemoglobin a one cm the basic metabolic panel today and i will see you back in three months';
  const transcript = heardUnsure({ 11: ['cm'] }).map((l, i) => (i === 11 ? heard(12, 'CLINICIAN', line, ['cm']) : l));
  const r = noteOf(transcript);
  const ap = r.summary.find((s) => s.loinc_code === '51847-2')!.content;
  it('keeps the test named whole after the span, ordered by the verb before it, and no fragment of the one cut', () => {
    expect(ap).toMatch(/Additional Testing: We will check the basic metabolic panel today\./);
    expect(ap).not.toMatch(/a one\b|hemoglobin\./i);
    expect(r.structured_data.orders.service_orders.values.map((o) => o.code?.code)).toContain('51990-0');
    expect(ap).toMatch(/follow up with me in 3 months/);
  });
  it('lists the sentence as heard for the review', () => {
    expect(r.left_out).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'LOW_CONFIDENCE', text: expect.stringMatching(/hemoglobin a one \[unclear\] the basic metabolic panel/) })]));
  });
});

describe('an answer to the allergy question that could not be read', () => {
  // "Sulfa drugs give me hives" was heard as "self a drags kidney hives": nothing was coded, and nothing said so.
  it('codes nothing from it and lists it for the review, with the question and the answer as evidence', () => {
    expect(r.structured_data.allergies.values).toEqual([]);
    expect(r.left_out).toEqual(expect.arrayContaining([
      { reason: 'NOT_UNDERSTOOD', kind: 'allergy', text: 'Asked about allergies, the patient said: "self a drags kidney hives"', loinc_code: '48765-2', source_transcripts: ['t5', 't6'] },
    ]));
  });
  it('lists nothing for an answer that was read: an allergy coded, or none', () => {
    for (const answer of ['[patient] sulfa drugs give me hives', '[patient] no i do not have any allergies', '[patient] none']) {
      const g = generate([...RECOGNISED.slice(0, 5), answer, ...RECOGNISED.slice(6)]);
      expect((g.left_out ?? []).filter((l) => l.reason === 'NOT_UNDERSTOOD'), answer).toEqual([]);
    }
  });
});

/**
 * The same visit recorded a third time (27 Nov, network pulled 15–32 s, nothing lost), word for word with the words the
 * recogniser was unsure of. The patient's dose answer came in two entries ("yes metformin one pounds" / "milligrams twice
 * a day"), and "panel" of the BMP was unsure.
 */
const THIRD: Array<[TranscriptLine['speaker'], string, string[]]> = [
  ['CLINICIAN', 'good afternoon what brings you in today', []],
  ['PATIENT', 'my blood sugars have been running high for around two hundred in the mornings and i have been really thirsty', ['for', 'around', 'two', 'in']],
  ['CLINICIAN', 'are you still take on the metformin', ['on']],
  ['PATIENT', 'yes metformin one pounds', []],
  ['PATIENT', 'milligrams twice a day', []],
  ['CLINICIAN', 'any allergies to medications', ['any']],
  ['PATIENT', 'sell for drugs kidney hives', ['sell', 'for', 'drugs', 'kidney', 'hives']],
  ['CLINICIAN', 'your blood pressure today is one fifty over ninety two', []],
  ['CLINICIAN', 'your feet look good with no ulcers and sensation is intact', []],
  ['CLINICIAN', 'i think your type two diabetes is not well controlled and your blood pressure is also higher', ['and']],
  ['CLINICIAN', 'continue the metformin', []],
  ['CLINICIAN', 'i will start lisinopril ten milligrams once a day for your blood pressure', []],
  ['CLINICIAN', "we will check a hemoglobin a long incision and the basic metabolic panel today and i will see you back in three months'", ['a', 'long', 'incision', 'panel']],
];
describe('the visit recorded a third time', () => {
  const transcript = THIRD.map(([speaker, text, low], i) => heard(i + 1, speaker, text, low));
  const r = noteOf(transcript);
  const part = (loinc: string) => r.summary.find((s) => s.loinc_code === loinc)!.content;
  it('orders the BMP whose "panel" was unsure, and writes it in the plan without the misheard A1c', () => {


    expect(part('51847-2')).toMatch(/Additional Testing: We will check the basic metabolic panel today\./);
    expect(part('51847-2')).not.toMatch(/incision|hemoglobin/i);
    expect(r.structured_data.orders.service_orders.values.map((o) => o.code?.code)).toEqual(['51990-0']);
  });
  it('never writes the dose fragment of a cut answer as a sentence', () => {
    expect(part('10164-2')).not.toMatch(/reports milligrams|^milligrams/im);
  });
  it('keeps the clause said in full after the unsure words, and lists the allergy answer for the review', () => {
    expect(part('10164-2')).toMatch(/has been thirsty\./);
    expect(r.left_out).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'NOT_UNDERSTOOD', kind: 'allergy', source_transcripts: ['t6', 't7'] })]));
  });
  it('says the allergy answer was not heard clearly when no word of it was, rather than quoting "[unclear]"', () => {
    const item = r.left_out!.find((l) => l.reason === 'NOT_UNDERSTOOD')!;
    expect(item.text).toBe('Asked about allergies, the patient answered, but no word of the answer was heard clearly.');
  });
});

describe('the visit recorded a fourth time', () => {
  // The same visit, recorded again (27 Nov, later): "months'" of the follow-up was unsure, "s" (a clipped "yes") too, and
  // the raised pressure was the only words implying hypertension.
  const lines: Array<[TranscriptLine['speaker'], string, string[]]> = [
    ...THIRD.slice(0, 3),
    ['PATIENT', 's metformin one thousand milligrams twice a day', ['s']],
    ...THIRD.slice(5, 12),
    ['CLINICIAN', "we will check the hemoglobin a while and see and the basic metabolic panel today and i will see you back in three months'", ['while', 'and', 'see', 'panel', "months'"]],
  ];
  const transcript = lines.map(([speaker, text, low], i) => heard(i + 1, speaker, text, low));
  const r = noteOf(transcript);
  const ap = r.summary.find((s) => s.loinc_code === '51847-2')!.content;
  it('never writes a number whose unit was unsure ("We will see the patient back in 3.")', () => {
    expect(ap).not.toMatch(/back in 3\b(?! months)/);
    expect(r.left_out).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'LOW_CONFIDENCE', text: expect.stringMatching(/back in 3 \[unclear\]/) })]));
    expect(ap).toMatch(/Additional Testing: We will check the basic metabolic panel today\./);
  });
  it('finds the evidence of a hypertension implied by the raised pressure, so the review does not call it unsupported', () => {
    const report = checkNoteFaithfulness(r, transcript, {});
    const unsupported = [...report.sentences, ...report.coded].flatMap((x) => x.facts.filter((f) => !f.supported).map((f) => f.fact.text));
    expect(unsupported).toEqual([]);
    expect(r.structured_data.diagnoses.values.map((d) => d.codes[0].code)).toContain('I10');
  });
});

describe('the opening sentence of a visit whose reason is a kind of visit', () => {
  it('reads "for a diabetes follow-up", not "for the evaluation of diabetes follow-up"; a condition is still evaluated', () => {
    const opening = (reason: string) =>
      engine.generateSync({ transcript: dialogueToTranscript(RECOGNISED.join('\n')), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} }, visit: { chief_complaint: reason } })
        .summary.find((s) => s.loinc_code === '10164-2')!.content.split('. ')[0];
    expect(opening('Diabetes follow-up')).toBe('The patient presents to the clinic today for a diabetes follow-up');
    expect(opening('Annual physical')).toBe('The patient presents to the clinic today for an annual physical');
    expect(opening('Knee pain')).toBe('The patient presents to the clinic today for the evaluation of knee pain');
    // A visit tried in the browser (2 Dec) read "for the evaluation of follow-up of blood pressure and diabetes".
    expect(opening('Follow-up of blood pressure and diabetes')).toBe('The patient presents to the clinic today for follow-up of blood pressure and diabetes');
  });
});
