/**
 * A 72 s diabetes and hypertension follow-up recorded in Chromium in Festival voices (1 Dec browser trial, the network
 * cut for 6 s at 30 s), as the recogniser gave it (recorded-diabetes-bp-72s.json), and the dialogue as written. The
 * clinician said "Good morning. We are here to follow up on your diabetes and your blood pressure", the patient "Yes,
 * penicillin gives me hives" to "Do you have any allergies to medications?", and the clinician "Your type two diabetes is
 * not well controlled, and your high blood pressure is close to goal". Faults a clinician found reading the note:
 * - The recogniser gives no punctuation, so "good morning we are …" made "we" the patient's name: the opener read
 *   "We presents to the clinic today …", in the History and again in the Assessment and Plan.
 * - The review before signing listed the Allergies line "Penicillin." as having no evidence in the transcript: the
 *   checker took an allergy only from "allergic to …", not from the answer to the clinician's allergy question.
 * - "i [will] increase the metformin to one thousand milligrams twice a day", its "will" unsure, came before any plan cue
 *   the engine knows (the unsure "not" of "is [not] well controlled" had hidden the one it knew): a decision about a drug
 *   said before the plan is kept only when its verb is heard, so the plan had no metformin line, the review did not list
 *   it, and the coded order, CHANGED from 500 mg, was linked to no diagnosis.
 * - Hypertension was no problem and no diagnosis of the recorded visit: the clinician told it as the patient's ("your high
 *   blood pressure is close to go[al]") while the patient takes lisinopril, but the lisinopril line of the plan was misheard
 *   ("continue the [earl] twenty milligrams"), so no drug ordered in the visit made it a managed problem.
 * - "Are you taking the metformin five hundred milligrams twice a day?" "yes with breakfast and [dinner] i also take lisinopril
 *   twenty milligrams once a day": unpunctuated, the yes and the next statement were one sentence; the History wrote the
 *   metformin from the yes and lost the lisinopril the patient takes, and the review did not list it.
 * - "yes penicillin [gets] me [hives]": the penicillin was coded with no reaction and the Allergies section read "Penicillin.",
 *   but nothing told the clinician that the reaction may be what was not heard.
 * - The problem was headed in the patient's words, "2. High blood pressure.", where a scribe writes "Hypertension".
 * - From the dialogue as written, the "not" of "diabetes is not well controlled" also denied the high blood pressure of
 *   the clause after "and your …": hypertension was neither a problem nor a diagnosis, and the lisinopril was filed
 *   under diabetes.
 */
import { describe, expect, it } from 'vitest';
import { checkNoteFaithfulness } from '../faithfulness';
import { analyze, conditionMentions } from './analyze';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';
import { recordedTranscript, type RecordedLine } from './recorded-transcript';
import RECORDED from './recorded-diabetes-bp-72s.json';

const generate = (transcript: Parameters<EmbeddedNotesEngine['generateSync']>[0]['transcript']) =>
  new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
type Note = ReturnType<typeof generate>;
const section = (r: Note, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
const transcript = recordedTranscript(RECORDED as RecordedLine[]);

describe('the recorded diabetes and hypertension visit', () => {
  const r = generate(transcript);

  it('does not take the "we" after an unpunctuated "good morning" for the patient\'s name', () => {
    expect(analyze(transcript).name).toBeUndefined();
    expect(section(r, '10164-2')).toMatch(/^The patient presents to the clinic today\b/);
    expect(r.summary.map((s) => s.content).join('\n')).not.toMatch(/\bWe presents\b/);
  });

  it('finds the allergy in the answer to the allergy question, so the review does not list it as unsupported', () => {
    expect(section(r, '48765-2')).toMatch(/^Penicillin\b/);
    const report = checkNoteFaithfulness(r, transcript);
    const allergies = report.sentences.filter((s) => s.loinc === '48765-2');
    expect(allergies.length).toBeGreaterThan(0);
    for (const s of allergies) {
      expect(s.facts.filter((f) => !f.supported)).toEqual([]);
      expect(s.noEvidence).toBe(false);
    }
  });

  it('keeps the drug decision heard around an unsure word in the plan, lists the span for the review, and links the order', () => {
    expect(section(r, '51847-2')).toMatch(/Medical Treatment: Increase the metformin from 500 mg to 1000 mg twice daily\./);
    expect(r.left_out).toContainEqual(expect.objectContaining({ reason: 'LOW_CONFIDENCE', kind: 'span', loinc_code: '51847-2', source_transcripts: ['r11'], text: expect.stringMatching(/^I \[unclear\] increase the metformin/) }));
    const metformin = r.structured_data.orders.medication_orders.values.find((o) => o.drug_name === 'metformin');
    expect(metformin).toMatchObject({ status: 'CHANGED', dosage: { quantity: 1000 }, previous_dosage: { quantity: 500 }, linked_diagnosis_codes: ['E11.9'] });
  });

  it('assesses the hypertension the clinician tells as the patient\'s while the patient takes a drug for it', () => {
    expect(r.structured_data.diagnoses.values.map((d) => d.codes[0].code)).toEqual(['E11.9', 'I10']);
    expect(section(r, '51847-2')).toMatch(/2\. Hypertension\.\n• Medical Reasoning: Their high blood pressure is close to go\./);
  });

  it('reads on past a yes to "are you taking …" when the answer goes on to name another drug the patient takes', () => {
    expect(section(r, '10164-2')).toMatch(/The patient is taking metformin 500 mg twice daily\. The patient also takes lisinopril 20 mg daily\./);
    const hpi = (answer: string) =>
      section(generate(dialogueToTranscript(`[doctor] are you taking the metformin five hundred milligrams twice a day\n[patient] ${answer}\n[doctor] i think your diabetes is well controlled. continue the metformin.`)), '10164-2');
    expect(hpi('yes i take it with breakfast and dinner')).not.toMatch(/takes it/);
    expect(hpi('yes every day and i also take atorvastatin twenty milligrams at night')).toMatch(/The patient also takes atorvastatin 20 mg/);
  });

  it('lists for the review an allergy coded with no reaction from an answer heard unsure', () => {
    expect(r.structured_data.allergies?.values).toEqual([expect.objectContaining({ substance: 'penicillin', reaction: null })]);
    expect(r.left_out).toContainEqual({ reason: 'LOW_CONFIDENCE', kind: 'allergy', text: 'Reaction to penicillin not heard clearly: "yes penicillin [unclear] me [unclear]"', loinc_code: '48765-2', source_transcripts: ['r6'] });
    const clear = generate(dialogueToTranscript('[doctor] do you have any allergies to medications\n[patient] yes penicillin gives me hives\n[doctor] okay. continue the metformin.'));
    expect(clear.structured_data.allergies?.values).toEqual([expect.objectContaining({ substance: 'penicillin', reaction: 'hives' })]);
    expect((clear.left_out ?? []).filter((l) => l.kind === 'allergy')).toEqual([]);
  });

  it('heads a problem named in everyday words by its clinical name, and keeps a clinical name said as it was', () => {
    const headings = (line: string) => section(generate(dialogueToTranscript(`[patient] i take lisinopril and atorvastatin.\n[doctor] ${line}\n[doctor] continue the lisinopril and the atorvastatin.`)), '51847-2').match(/^\d\. .*$/gm);
    expect(headings('your high blood pressure is well controlled and your high cholesterol is better.')).toEqual(['1. Hypertension.', '2. Hyperlipidemia.']);
    expect(headings('your essential hypertension is well controlled.')).toEqual(['1. Essential hypertension.']);
  });
});

describe('a negation does not reach into the next clause with its own subject', () => {
  const negated = (text: string) => {
    const [s] = analyze([{ transcriptId: 't', speaker: 'CLINICIAN', text, startMs: 0, endMs: 1 }]).sentences;
    return Object.fromEntries(conditionMentions(s).map((m) => [m.surface, m.negated]));
  };

  it('"… is not well controlled, and your high blood pressure is close to goal" states the high blood pressure', () => {
    expect(negated('your type 2 diabetes is not well controlled, and your high blood pressure is close to goal.')).toMatchObject({ 'high blood pressure': false });
    expect(negated("i don't think this is asthma, but your chronic obstructive pulmonary disease is worse.")).toMatchObject({ asthma: true });
  });

  it('still negates a list, and a clause of its own', () => {
    expect(negated('no fever and chills.')).toEqual({ fever: true, chills: true });
    expect(negated('you do not have diabetes and you do not have high blood pressure.')).toEqual({ diabetes: true, 'high blood pressure': true });
  });

  it('does not assess a condition asked about or told as history, though a drug for it is taken', () => {
    const codes = (line: string) =>
      generate(dialogueToTranscript(`[doctor] Good morning. What brings you in today?\n[patient] I have had a cough for a week. I take lisinopril ten milligrams once a day.\n${line}\n[doctor] I think this is acute bronchitis. Rest and drink fluids.`)).structured_data.diagnoses.values.map((d) => d.codes[0].code);
    expect(codes('[doctor] How is your high blood pressure at home?')).not.toContain('I10');
    expect(codes('[doctor] You have a history of your high blood pressure in the past.')).not.toContain('I10');
  });

  it('makes hypertension a problem and a diagnosis of the dialogue as written, with the lisinopril under it', () => {
    const note = generate(
      dialogueToTranscript(`[doctor] Good morning. We are here to follow up on your diabetes and your blood pressure.
[patient] I take metformin five hundred milligrams twice a day and lisinopril twenty milligrams once a day.
[doctor] Your blood pressure today is one thirty eight over eighty six.
[doctor] Your type two diabetes is not well controlled, and your high blood pressure is close to goal.
[doctor] I will increase the metformin to one thousand milligrams twice a day.
[doctor] Continue the lisinopril twenty milligrams once a day.`),
    );
    expect(note.structured_data.diagnoses.values.map((d) => d.codes[0].code)).toEqual(expect.arrayContaining(['E11.9', 'I10']));
    const lisinopril = note.structured_data.orders.medication_orders.values.find((o) => o.drug_name === 'lisinopril');
    expect(lisinopril).toMatchObject({ status: 'ACTIVE', linked_diagnosis_codes: ['I10'] });
    expect(section(note, '51847-2')).toMatch(/Medical Reasoning: Their high blood pressure is close to goal\./);
  });
});
