/**
 * Realistic visits tried in the browser on 3 Dec (clean typed dialogues, the trial's `clean` and `clean1`): a return
 * precaution missing from the note or filed as one problem's reasoning, and what else those notes got wrong.
 */
import { describe, expect, it } from 'vitest';
import { buildVisitSummary } from '@/server/domain/visit-summary/build-visit-summary';
import { checkNoteFaithfulness } from '../faithfulness/check-note-faithfulness';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const generate = (visit: string) => {
  const transcript = dialogueToTranscript(visit);
  const note = new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
  const section = (title: string) => note.summary.find((s) => s.title === title)?.content ?? '';
  return { transcript, note, section };
};

const PRECAUTION_VISIT = `[doctor] Your hypertension is not controlled. High blood pressure can lead to a stroke if it is not treated.
[doctor] I am going to increase your lisinopril from twenty milligrams to forty milligrams once daily.
[patient] Okay. My right knee has also been hurting, especially on the stairs.
[doctor] This is osteoarthritis of the right knee.
[doctor] You can take acetaminophen five hundred milligrams every six hours as needed for pain.
[doctor] Please follow up with me in three months. If you have any chest pain, go to the emergency room right away.
[patient] Okay, thank you doctor.`;

describe('a return precaution', () => {
  const { transcript, note, section } = generate(PRECAUTION_VISIT);
  const plan = section('ASSESSMENT AND PLAN');

  it('is written with the follow-up as the instructions, not as a problem\'s reasoning', () => {
    expect(plan).toContain('Instructions: The patient will follow up with me in 3 months. If the patient has any chest pain, the patient should go to the emergency room right away.');
    expect(plan.match(/chest pain/g)).toHaveLength(1);
    expect(note.structured_data.diagnoses.values.map((d) => d.diagnosis_note).join(' ')).not.toMatch(/chest pain/);
  });

  it('is what the after-visit summary says to get help for', () => {
    const avs = buildVisitSummary('s1', note.summary, note.structured_data, null);
    expect(avs.get_help).toEqual(['If you have any chest pain, you should go to the emergency room right away.']);
    expect(avs.follow_up.join(' ')).not.toMatch(/chest pain/);
  });

  it('is supported by the warning sign the clinician said', () => {
    const report = checkNoteFaithfulness(note, transcript);
    const said = report.sentences.find((s) => /chest pain/.test(s.text));
    expect(said?.noEvidence).toBe(false);
    expect(report.unsupported.filter((u) => /chest pain/.test(u.sentence.text))).toEqual([]);
  });
});

describe('a drug the patient asks about', () => {
  const { note, section } = generate(`[doctor] Good. You take metformin five hundred milligrams twice a day, right?
[patient] Yes, twice a day with meals.
[patient] Can I take amoxicillin if I get an infection? I am allergic to penicillin. It gave me a rash.
[doctor] No, we will avoid penicillins. I have noted your penicillin allergy with rash.
[patient] Can I take my metformin with food?
[doctor] Yes. Please follow up with me in three months.`);

  it('is not listed or ordered when the clinician declines it', () => {
    expect(section('MEDICATIONS')).not.toMatch(/amoxicillin/i);
    expect([...note.structured_data.orders.medication_orders.values, ...note.structured_data.orders.medication_orders.partial_values].map((o) => o.drug_name)).not.toContain('amoxicillin');
  });

  it('still lists one the patient asks about taking as their own', () => {
    expect(section('MEDICATIONS')).toMatch(/^Metformin 500 mg twice daily\.$/m);
  });
});

describe('a drug for a condition the visit never names', () => {
  const { note, section } = generate(`[patient] Pretty good overall. My sugars have been okay on the metformin.
[doctor] Great, we will continue the metformin at the same dose. How is your blood pressure at home?
[patient] It has been high.
[doctor] I am going to increase your lisinopril from twenty milligrams to forty milligrams once daily.
[patient] My right knee has also been hurting, especially on the stairs.
[doctor] This looks like osteoarthritis of the right knee.
[doctor] You can take acetaminophen five hundred milligrams every six hours as needed for pain.`);
  const links = Object.fromEntries(note.structured_data.orders.medication_orders.values.map((o) => [o.drug_name, o.linked_diagnosis_codes]));

  it('is not filed under a problem it does not treat', () => {
    const plan = section('ASSESSMENT AND PLAN');
    const knee = plan.slice(plan.indexOf('Osteoarthritis'), plan.indexOf('2. '));
    expect(knee).toContain('acetaminophen');
    expect(knee).not.toMatch(/metformin|lisinopril/);
    expect(plan).toMatch(/^2\. Medication management\.\n• Medical Treatment: We will continue the metformin at the same dose\. We will increase their lisinopril from 20 mg to 40 mg once daily\.$/m);
  });

  it('is linked to no diagnosis, while the drug that treats one stays linked to it', () => {
    expect(links).toEqual({ metformin: [], lisinopril: [], acetaminophen: ['M17.11'] });
  });
});

describe('family history said in the visit', () => {
  const VISIT = `[patient] My right knee has been hurting, especially on the stairs.
[doctor] On exam there is crepitus in the right knee. This looks like osteoarthritis of the right knee.
[doctor] You can take acetaminophen five hundred milligrams every six hours as needed for pain.
[patient] I am allergic to penicillin. It gave me a rash.
[doctor] I have noted your penicillin allergy with rash.
[patient] Also, my mother had breast cancer, so I worry about that.
[doctor] That is good to know for your family history. Today I am ordering a basic metabolic panel.
[patient] My husband has diabetes.`;
  const { note, section } = generate(VISIT);

  it('is not an acknowledgement written as reasoning', () => {
    expect(section('ASSESSMENT AND PLAN')).not.toMatch(/good to know/i);
  });

  it('is told in the history, for a blood relative only, and not coded as the patient\'s', () => {
    expect(section('HISTORY OF PRESENT ILLNESS')).toMatch(/^Family history of breast cancer in their mother\.$/m);
    expect(section('HISTORY OF PRESENT ILLNESS')).not.toMatch(/husband|diabetes/i);
    expect(note.structured_data.diagnoses.values.flatMap((d) => d.codes.map((c) => c.code))).not.toContain('C50.919');
  });

  it('fills the family history section when the note has one, and is then not repeated in the history', () => {
    const withSection = new EmbeddedNotesEngine().generateSync({ transcript: dialogueToTranscript(VISIT), sections: [{ loinc: '10164-2' }, { loinc: '10157-6' }], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
    expect(withSection.summary.find((s) => s.loinc_code === '10157-6')?.content).toBe('Family history of breast cancer in their mother.');
    expect(withSection.summary.find((s) => s.loinc_code === '10164-2')?.content).not.toMatch(/breast cancer/);
  });
});

const CLEAN = `[doctor] Good morning. How have you been since your last visit?
[patient] Pretty good overall. My sugars have been okay on the metformin.
[doctor] Your type two diabetes looks well controlled. You take metformin five hundred milligrams twice a day, right?
[patient] Yes, twice a day with meals. No stomach problems.
[doctor] Good. Continue the metformin at the same dose. How is your blood pressure at home?
[patient] It has been high. Mostly around one fifty over ninety five in the mornings.
[doctor] Your hypertension is not controlled. High blood pressure can lead to a stroke if it is not treated.
[doctor] I am going to increase your lisinopril from twenty milligrams to forty milligrams once daily.
[patient] Okay. My right knee has also been hurting, especially on the stairs.
[doctor] On exam there is crepitus in the right knee. This is osteoarthritis of the right knee.
[doctor] You can take acetaminophen five hundred milligrams every six hours as needed for pain.
[patient] I am allergic to penicillin. It gave me a rash.
[doctor] Okay. I have noted your penicillin allergy with rash.
[patient] Also, my mother had breast cancer.
[doctor] Thank you, that is helpful family history. Today I am ordering a basic metabolic panel and a hemoglobin A1c.
[doctor] Please follow up with me in three months. If you have any chest pain, go to the emergency room right away.
[patient] Okay, thank you doctor.`;

describe('an exam finding said after the plan began', () => {
  // The trial's `clean` visit: its first plan cue (the hypertension's assessment) comes before the exam's.
  const { section } = generate(CLEAN);
  const plan = section('ASSESSMENT AND PLAN');

  it('is the physical examination, not the hypertension\'s reasoning', () => {
    expect(section('PHYSICAL EXAMINATION')).toBe('• Musculoskeletal: Examination of the right knee: There is crepitus in the right knee.');
    expect(plan).not.toMatch(/crepitus/);
  });

  it('is followed by the diagnosis it names, as a problem of its own', () => {
    expect(plan).toMatch(/^1\. Hypertension\.\n• Medical Reasoning: Their hypertension is not controlled\. High blood pressure can lead to a stroke if it is not treated\.$/m);
    expect(plan).toMatch(/^3\. Type 2 diabetes\.$/m);
    expect(plan).toMatch(/^2\. Osteoarthritis of the right knee\.\n• Medical Reasoning: This is osteoarthritis of the right knee\.\n• Medical Treatment: The patient can take acetaminophen/m);
  });
});

describe('an increase heard from a higher dose than its new one', () => {
  // The recogniser heard "for ninety" for "from twenty".
  const { note, section } = generate(`[doctor] Your hypertension is not controlled.
[doctor] I am going to increase their lisinopril for ninety milligrams to forty milligrams once daily.`);
  const [order] = note.structured_data.orders.medication_orders.values;

  it('keeps the new dose and records no dose before it', () => {
    expect(order).toMatchObject({ drug_name: 'lisinopril', status: 'CHANGED', dosage: { quantity: 40, unit: 'MG' } });
    expect(order?.previous_dosage ?? null).toBeNull();
  });

  it('does not write the impossible dose before as said', () => {
    expect(section('ASSESSMENT AND PLAN')).toContain('We will increase their lisinopril to 40 mg once daily.');
    expect(note.summary.map((s) => s.content).join('\n')).not.toMatch(/\b90\b/);
  });

  it('is listed for the review as misheard', () => {
    expect(note.left_out?.map((x) => x.text)).toEqual([expect.stringMatching(/^A change of lisinopril was heard from 90 to 40 milligrams, which its verb contradicts; the dose before was left out/)]);
  });
});

// The trial's `clean1` visit.
const CLEAN1 = `[doctor] Good morning. I am Doctor Patel. How have you been since your last visit?
[patient] Pretty good overall. My sugars have been okay on the metformin.
[doctor] Good. You take metformin five hundred milligrams twice a day, right?
[patient] Yes, twice a day with meals. No stomach problems.
[doctor] Great, we will continue the metformin at the same dose. How is your blood pressure at home?
[patient] It has been high. Mostly around one fifty over ninety five in the mornings.
[doctor] That is too high. High blood pressure can lead to a stroke if it is not treated.
[doctor] I am going to increase your lisinopril from twenty milligrams to forty milligrams once daily.
[patient] Okay. My right knee has also been hurting, especially on the stairs.
[doctor] On exam there is crepitus in the right knee. This looks like osteoarthritis of the right knee.
[doctor] You can take acetaminophen five hundred milligrams every six hours as needed for pain.
[patient] Can I take amoxicillin if I get an infection? I am allergic to penicillin. It gave me a rash.
[doctor] No, we will avoid penicillins. I have noted your penicillin allergy with rash.
[patient] Also, my mother had breast cancer, so I worry about that.
[doctor] That is good to know for your family history. Today I am ordering a basic metabolic panel and a hemoglobin A1c.
[doctor] Please follow up with me in three months. If you have any chest pain, go to the emergency room right away.
[patient] Okay, thank you doctor.`;

describe('an order said after "today"', () => {
  it('is in the plan, in the plan voice', () => {
    expect(generate(CLEAN1).section('ASSESSMENT AND PLAN')).toContain('• Additional Testing: We are ordering a basic metabolic panel and a hemoglobin a1c.');
    expect(generate(CLEAN).section('ASSESSMENT AND PLAN')).toMatch(/^3\. Type 2 diabetes\.\n• Additional Testing: We are ordering a basic metabolic panel and a hemoglobin a1c\.$/m);
  });
});

describe('the plan item of drugs that treat no problem named', () => {
  it('is the engine\'s own heading for the review, not a sentence without evidence', () => {
    const { note, transcript } = generate(CLEAN1);
    const heading = checkNoteFaithfulness(note, transcript).sentences.find((s) => /Medication management/.test(s.text));
    expect(heading?.template).toBe('plan-item');
  });
});
