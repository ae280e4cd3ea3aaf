/**
 * A natural-voice visit tried in the browser on 2 Dec: the patient's "pretty good but my blood pressure readings at home
 * have been high" and the lisinopril raised for it gave no hypertension (the lisinopril was filed under diabetes), the
 * history read "The patient reports pretty good but their blood pressure …", and the clinician's "I have noted your
 * penicillin allergies" was coded as allergic rhinitis (J30.9), in the note, the after-visit summary and FHIR.
 */
import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const engine = new EmbeddedNotesEngine();
const write = (dialogue: string) =>
  engine.generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const codes = (dialogue: string) => write(dialogue).structured_data.diagnoses.values.map((d) => d.codes[0].code);

const VISIT = `[doctor] good morning how have you been since your last visit
[patient] pretty good but my blood pressure readings at home have been high around one fifty over ninety five
[doctor] you're taking lisinopril twenty milligrams once a day
[doctor] i am going to increase the lisinopril to forty milligrams once a day
[patient] okay and my sugar has been fine on the metformin
[doctor] good continue metformin five hundred milligrams twice a day for your diabetes
[patient] thank you remember i'm allergic to penicillin it gave me a rash
`;

describe('home blood pressure readings said high, with the lisinopril raised', () => {
  it('codes hypertension and files the lisinopril under it, not under diabetes', () => {
    const r = write(VISIT);
    expect(r.structured_data.diagnoses.values.map((d) => d.codes[0].code)).toEqual(expect.arrayContaining(['I10', 'E11.9']));
    const lisinopril = r.structured_data.orders.medication_orders.values.find((m) => m.drug_name === 'lisinopril')!;
    expect(lisinopril.linked_diagnosis_codes).toEqual(['I10']);
    expect(lisinopril.status).toBe('CHANGED');
    const plan = r.summary.find((s) => s.title === 'ASSESSMENT AND PLAN')!.content;
    expect(plan).toMatch(/Hypertension\.\n• Medical Treatment: We will increase the lisinopril from 20 mg to 40 mg daily\./);
  });

  it('writes the readings in the history without the greeting\'s answer', () => {
    const hpi = write(VISIT).summary.find((s) => s.title === 'HISTORY OF PRESENT ILLNESS')!.content;
    expect(hpi).toContain('Their blood pressure readings at home have been high around 150/95.');
    expect(hpi).not.toMatch(/pretty good/i);
  });

  it('does not code a reading said high with no drug for it managed in the visit', () => {
    expect(codes('[patient] my blood pressure readings at home have been high\n[doctor] okay we will keep an eye on it\n')).not.toContain('I10');
  });
});

describe('allergies to a substance are not allergic rhinitis', () => {
  it('does not code J30 for a drug\'s allergies, a kind of allergy or the chart\'s list', () => {
    for (const said of ['yes i have noted your penicillin allergies', 'yes i have noted or penicillin allergies', 'i have your allergies on file', 'no known allergies', 'any drug allergies'])
      expect(codes(`${VISIT}[doctor] ${said}\n`), said).not.toContain('J30.9');
  });

  it('still codes the patient\'s allergies as allergic rhinitis', () => {
    expect(codes(`${VISIT}[doctor] it looks like you might be having a little bit of allergies so we can try a daily claritin\n`)).toContain('J30.9');
  });
});
