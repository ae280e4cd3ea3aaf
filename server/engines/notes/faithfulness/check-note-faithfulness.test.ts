import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from '../embedded/dialogue';
import type { MedicationOrder, NoteSection, StructuredData } from '../types';
import { checkNoteFaithfulness } from './check-note-faithfulness';

// The 88-second follow-up visit of issue 27, as text: hypertension, knee pain, a penicillin allergy,
// lisinopril 10 → 20 mg, metformin continued, acetaminophen as needed, a BMP, follow-up in 4 weeks.
const VISIT = dialogueToTranscript(`[doctor] Hi, I am doctor Patel, we are following up on your high blood pressure today.
[patient] Yes. I have been checking my blood pressure at home in the morning.
[doctor] How is your knee pain?
[patient] My right knee still hurts, I take acetaminophen five hundred milligrams every six hours as needed.
[doctor] Any allergies to medications?
[patient] I am allergic to penicillin, it gives me a rash.
[doctor] Are you still taking metformin for your diabetes?
[patient] Yes, every day.
[doctor] You are on lisinopril ten milligrams daily. Your blood pressure today is one fifty two over ninety four.
[doctor] I will increase the lisinopril to twenty milligrams daily, continue metformin, and check a basic metabolic panel. Follow up in four weeks.
[patient] Okay.`);

const section = (title: string, loinc: string, sentences: Array<[string, string[]?]>): NoteSection => ({
  title,
  loinc_code: loinc,
  content: sentences.map(([t]) => t).join(' '),
  source_transcripts: [],
  sentences: sentences.map(([text, src]) => ({ text, source_transcripts: src ?? [] })),
});
const order = (drug: string, quantity: number, status: string): MedicationOrder => ({
  drug_name: drug, medication_code: null, status, dosage: { quantity, unit: 'MG', raw_value: null }, frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' },
  medication_timing: null, route: null, duration_in_days: null, number_of_refills: null, instructions: null,
  metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' }, linked_diagnosis_codes: [],
});
const data = (orders: MedicationOrder[]): StructuredData => ({ diagnoses: { values: [] }, orders: { medication_orders: { values: orders, partial_values: [] }, service_orders: { values: [] } }, allergies: { values: [] }, section_structured_values: [] });
const check = (sections: NoteSection[], orders: MedicationOrder[] = []) => checkNoteFaithfulness({ summary: sections, structured_data: data(orders) }, VISIT);
const unsupported = (r: ReturnType<typeof check>) => r.unsupported.map((u) => `${u.result.fact.kind}:${u.result.fact.key}:${u.result.reason}`);

describe('checkNoteFaithfulness: the failures of issue 27', () => {
  it('flags the allergy turned into a review-of-systems finding', () => {
    const r = check([section('REVIEW OF SYSTEMS', '10187-3', [['Endorses rash.', ['t6']]])]);
    expect(unsupported(r)).toEqual(['problem:L30:allergy-reaction-as-finding']);
    expect(r.sentences[0].misfiled).toBe('allergy-in-findings');
  });

  it('accepts the same rash written as the allergy it is', () => {
    const r = check([section('ALLERGIES', '48765-2', [['Allergic to penicillin, which causes a rash.', ['t6']]])]);
    expect(r.unsupported).toEqual([]);
    expect(r.sentences[0].evidence).toEqual(['t6']);
  });

  it('reads a line of the Allergies section as an allergy, in the scribes\' short form', () => {
    const r = check([section('ALLERGIES', '48765-2', [['Penicillin causes rash.', ['t6']]])]);
    expect(r.unsupported).toEqual([]);
    expect(r.sentences[0].facts.map((f) => f.fact.kind)).toContain('allergy');
    // The same words elsewhere are still a finding the visit did not report.
    expect(unsupported(check([section('REVIEW OF SYSTEMS', '10187-3', [['Penicillin causes rash.', ['t6']]])]))).toContain('problem:L30:allergy-reaction-as-finding');
  });

  it('flags the agreement line nobody said, and marks it as template text', () => {
    const r = check([section('ASSESSMENT AND PLAN', '51847-2', [['The patient understands and agrees with the recommended medical treatment plan.', ['t11']]])]);
    expect(unsupported(r)).toEqual(['agreement:agreement:agreement-not-said']);
    expect(r.sentences[0].template).toBe('agreement');
  });

  it('takes the engine\'s template flags when the note carries them: a supported agreement line is not template', () => {
    const agreed = dialogueToTranscript('[doctor] We will increase the lisinopril.\n[patient] That sounds good.');
    const sections: NoteSection[] = [{
      title: 'ASSESSMENT AND PLAN', loinc_code: '51847-2', content: '', source_transcripts: [],
      sentences: [
        { text: 'The patient will follow up with me in 4 weeks.', source_transcripts: [], template: true },
        { text: 'The patient understands and agrees with the recommended medical treatment plan.', source_transcripts: ['t2'] },
      ],
    }];
    const r = checkNoteFaithfulness({ summary: sections, structured_data: data([]) }, agreed);
    expect(r.sentences.map((x) => x.template)).toEqual(['follow-up', undefined]);
    // Without flags the wording decides, as for any engine's note.
    const plain = checkNoteFaithfulness({ summary: [{ ...sections[0], sentences: [sections[0].sentences![1]] }], structured_data: data([]) }, agreed);
    expect(plain.sentences[0].template).toBe('agreement');
  });

  it('accepts an agreement line when the patient did agree', () => {
    const transcript = [...VISIT.slice(0, -1), { ...VISIT.at(-1)!, text: 'That sounds good, I agree.' }];
    const r = checkNoteFaithfulness({ summary: [section('ASSESSMENT AND PLAN', '51847-2', [['The patient understands and agrees with the recommended medical treatment plan.']])] }, transcript);
    expect(r.unsupported).toEqual([]);
    expect(r.sentences[0].evidence).toEqual(['t11']);
  });

  it('flags 10 mg in the medication list against a coded order of 20 mg, changed', () => {
    const r = check([section('MEDICATIONS', '10160-0', [['Lisinopril 10 mg daily.', ['t9']]])], [order('lisinopril', 20, 'CHANGED')]);
    expect(unsupported(r)).toEqual(['dose:10 mg:contradicts-coded-order']);
  });

  it('accepts the change written as a change', () => {
    const r = check([section('ASSESSMENT AND PLAN', '51847-2', [['Increase lisinopril from 10 mg to 20 mg daily.', ['t9', 't10']]])], [order('lisinopril', 20, 'CHANGED')]);
    expect(r.unsupported).toEqual([]);
  });

  it('flags a dose nobody said, and a dose said of another drug', () => {
    expect(unsupported(check([section('PLAN', '18776-5', [['Lisinopril 40 mg daily.']])]))).toEqual(['dose:40 mg:not-in-transcript']);
    expect(unsupported(check([section('PLAN', '18776-5', [['Metformin 20 mg daily.']])]))).toEqual(['dose:20 mg:dose-not-with-drug']);
  });

  it('flags the acetaminophen filed in the physical exam', () => {
    const r = check([section('PHYSICAL EXAMINATION', '29545-1', [['Acetaminophen 500 mg every 6 hours as needed.', ['t4']]])]);
    expect(r.unsupported).toEqual([]);
    expect(r.sentences[0].misfiled).toBe('medication-in-exam');
  });

  it('flags the greeting and the "[unclear]" span printed into the note', () => {
    const r = check([
      section('ASSESSMENT AND PLAN', '51847-2', [['I am [unclear] we are follow-up on their high blood pressure today.', ['t1']]]),
      section('HISTORY OF PRESENT ILLNESS', '10164-2', [['Hi, I am doctor Patel.', ['t1']]]),
    ]);
    expect(r.sentences.map((s) => s.flags)).toEqual([['unclear'], ['greeting']]);
  });

  it('supports facts written from spoken numbers, brand names and stemmed words', () => {
    const r = check([
      section('PHYSICAL EXAMINATION', '29545-1', [['Blood pressure: 152/94 mmHg.', ['t9']]]),
      section('MEDICATIONS', '10160-0', [['Tylenol 500 mg every 6 hours as needed.', ['t4']]]),
      section('ASSESSMENT AND PLAN', '51847-2', [['We will check a BMP.', ['t10']], ['The patient will follow up with me in 4 weeks.', ['t10']]]),
    ]);
    expect(r.unsupported).toEqual([]);
    expect(r.sentences.map((s) => s.evidence)).toEqual([['t9'], ['t4'], ['t10'], ['t10']]);
  });
});

describe('checkNoteFaithfulness: negations, evidence and context', () => {
  const qa = dialogueToTranscript(`[doctor] Any chest pain?
[patient] Yes, sometimes when I walk.
[doctor] Any fever?
[patient] No.`);

  it('counts a negation flip either way as unsupported', () => {
    const r = checkNoteFaithfulness('REVIEW OF SYSTEMS\nDenies chest pain. Endorses fever.', qa);
    expect(r.unsupported.map((u) => `${u.result.fact.kind}:${u.result.reason}`)).toEqual(['negation:negation-flip', 'problem:negation-flip']);
    const ok = checkNoteFaithfulness('REVIEW OF SYSTEMS\nEndorses chest pain. Denies fever.', qa);
    expect(ok.unsupported).toEqual([]);
    expect(ok.sentences.map((s) => s.evidence)).toEqual([['t1'], ['t3']]);
  });

  it('does not take a family member\'s condition for the patient\'s', () => {
    const t = dialogueToTranscript('[patient] My mother has diabetes.');
    expect(checkNoteFaithfulness('Diabetes.', t).unsupported.map((u) => u.result.reason)).toEqual(['family-history-as-patient']);
  });

  it('treats cited ids that do not exist as no evidence, and reports a sentence nothing supports', () => {
    const r = checkNoteFaithfulness({ summary: [section('PLAN', '18776-5', [['Chest pain is improving.', ['t1', 'nope']], ['The weather was discussed at length.', ['t2']]])] }, qa);
    expect(r.sentences[0]).toMatchObject({ claimedEvidence: ['t1', 'nope'], verifiedEvidence: ['t1'], noEvidence: false });
    expect(r.sentences[1]).toMatchObject({ verifiedEvidence: [], evidence: [], noEvidence: true });
  });

  it('supports a fact from the session context', () => {
    const r = checkNoteFaithfulness('MEDICATIONS\nAtorvastatin 40 mg daily.', qa, {
      contextMedicationOrders: [{ ...order('atorvastatin', 40, 'ACTIVE') }],
    });
    expect(r.unsupported).toEqual([]);
    expect(r.sentences[0].evidence).toEqual(['context:medication_orders[0]']);
  });

  it('checks the coded data as well', () => {
    const r = checkNoteFaithfulness({ summary: [], structured_data: { ...data([order('lisinopril', 20, 'NEW')]), diagnoses: { values: [{ codes: [{ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', type: 'ICD10' }], diagnosis_note: '' }] } } }, qa);
    expect(r.coded.map((s) => s.text)).toEqual(['E11.9 Type 2 diabetes mellitus without complications', 'lisinopril 20 mg daily (NEW)']);
    expect(r.unsupported.map((u) => `${u.result.fact.kind}:${u.result.fact.key}`)).toEqual(['problem:E11', 'drug:lisinopril', 'dose:20 mg', 'frequency:ONE_A_DAY']);
  });
});
