/**
 * A 62 s asthma and cholesterol follow-up recorded in Chromium in Festival voices (28 Nov browser trial), as the
 * recogniser gave it. Its note lost the oxygen saturation the clinician read out ("your oxygen level was ninety seven
 * percent": no exam cue, no "today"), coded the albuterol's as-needed reason (shortness of breath) as a diagnosis, and
 * missed the cholesterol the visit was framed on and managed with atorvastatin, filing the statin and the lipid panel
 * under the asthma.
 */
import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';
import { recordedTranscript, type RecordedLine } from './recorded-transcript';
import RECORDED from './recorded-asthma-lipids-62s.json';

const generate = (transcript: Parameters<EmbeddedNotesEngine['generateSync']>[0]['transcript']) =>
  new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const section = (r: ReturnType<typeof generate>, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
const note = (dialogue: string) => generate(dialogueToTranscript(dialogue));

describe('the recorded asthma and cholesterol follow-up', () => {
  const r = generate(recordedTranscript(RECORDED as RecordedLine[]));

  it('states the oxygen saturation the clinician read out under the examination', () => {
    expect(section(r, '29545-1')).toMatch(/Oxygen saturation: 97%\./);
  });

  it('codes the cholesterol the visit is for and manages with atorvastatin as hyperlipidemia, with its evidence', () => {
    const lipids = r.structured_data.diagnoses.values.find((d) => d.codes[0].code === 'E78.5');
    expect(lipids?.source_transcripts).toEqual(['r2']);
  });

  it('files the atorvastatin and the lipid panel under the hyperlipidemia, not the asthma', () => {
    const plan = section(r, '51847-2');
    const asthma = plan.slice(plan.indexOf('Asthma.'), plan.indexOf('Hyperlipidemia.'));
    const lipids = plan.slice(plan.indexOf('Hyperlipidemia.'));
    expect(plan).toMatch(/^\d\. Hyperlipidemia\.$/m);
    expect(asthma).not.toMatch(/atorvastatin|lipid panel/i);
    expect(lipids).toMatch(/Continue atorvastatin 20 mg/);
    expect(lipids).toMatch(/check a lipid panel/);
    const statin = r.structured_data.orders.medication_orders.values.find((o) => o.drug_name === 'atorvastatin');
    expect(statin?.linked_diagnosis_codes).toEqual(['E78.5']);
  });

  it('codes no shortness of breath from the albuterol kept for it as needed', () => {
    const codes = r.structured_data.diagnoses.values.map((d) => d.codes[0].code);
    expect(codes).toContain('J45.909');
    expect(codes).not.toContain('R06.02');
  });
});

describe('a vital sign read out to the patient is measured in the room', () => {
  it.each([
    ['[doctor] your oxygen level was ninety seven percent', '97%'],
    ['[doctor] your oxygen level is ninety seven percent', '97%'],
    ['[doctor] your oxygen is 97 %', '97%'],
    ['[doctor] sats 95', '95%'],
  ])('%s', (dialogue, value) => {
    expect(section(note(dialogue), '29545-1')).toContain(`Oxygen saturation: ${value}.`);
  });

  it('a threshold to call about, or oxygen given in litres, is no reading', () => {
    expect(section(note('[doctor] if your temperature is over 101 today call me'), '29545-1')).not.toMatch(/Temperature/);
    expect(section(note('[doctor] we will keep you on oxygen 2 liters'), '29545-1')).not.toMatch(/Oxygen saturation/);
  });
});

describe("a symptom named only as a drug's as-needed reason is no diagnosis", () => {
  const codes = (dialogue: string) => note(dialogue).structured_data.diagnoses.values.map((d) => d.codes[0].code);
  const visit = (plan: string) => `[patient] my breathing is worse
[doctor] let me listen to your lungs
[doctor] i hear some wheezing
[doctor] your asthma is not well controlled
${plan}`;

  it.each([
    '[doctor] keep the albuterol for shortness of breath as needed',
    '[doctor] use albuterol as needed for wheezing or shortness of breath',
    '[doctor] use albuterol for cough or shortness of breath as needed',
    '[doctor] use albuterol if you get shortness of breath',
  ])('%s', (plan) => {
    const got = codes(visit(plan));
    expect(got).toContain('J45.909');
    expect(got.filter((c) => c.startsWith('R'))).toEqual([]);
  });

  it('a symptom the plan assesses stays coded though a drug is also taken for it as needed, with its evidence', () => {
    const r = note(`[patient] my breathing is worse and i am dizzy
[doctor] let me listen to your lungs
[doctor] i hear some wheezing
[doctor] your asthma is not well controlled
[doctor] for your dizziness i think it is positional and we will watch it
[doctor] you can take meclizine for dizziness as needed`);
    const dizzy = r.structured_data.diagnoses.values.find((d) => d.codes[0].code === 'R42');
    expect(dizzy?.source_transcripts).toEqual(expect.arrayContaining(['t5', 't6']));
  });
});

describe('cholesterol is hyperlipidemia only when the visit manages it, never as a test', () => {
  const codes = (dialogue: string) => note(dialogue).structured_data.diagnoses.values.map((d) => d.codes[0].code);

  it('"check your cholesterol" alone codes nothing, nor a cholesterol test fasted for beside a statin', () => {
    expect(codes('[doctor] we will check your cholesterol today')).toEqual([]);
    expect(codes(`[doctor] hi there
[patient] hi i am fasting for my cholesterol test
[doctor] okay
[patient] i take atorvastatin 20 mg
[doctor] your heart sounds good
[doctor] continue atorvastatin 20 mg daily and we will check your cholesterol`)).not.toContain('E78.5');
  });

  it('"here for your cholesterol" with no drug for it codes nothing', () => {
    expect(codes(`[doctor] hi there
[patient] hi
[doctor] i understand you are here for your cholesterol
[patient] yes
[doctor] your heart sounds good
[doctor] we will check your cholesterol and see you in a year`)).not.toContain('E78.5');
  });

  it('followed up on with a statin continued, or said to be high with a statin started, is E78.5', () => {
    expect(codes(`[doctor] hi there
[patient] hi
[doctor] we are following up on your cholesterol today
[patient] i take atorvastatin 20 mg
[doctor] your heart sounds good
[doctor] continue atorvastatin 20 mg daily and we will check a lipid panel`)).toContain('E78.5');
    expect(codes(`[doctor] hi there
[patient] hi
[doctor] how are you
[patient] fine
[doctor] your heart sounds good
[doctor] your cholesterol is still high so i will start atorvastatin 20 mg daily`)).toContain('E78.5');
  });
});
