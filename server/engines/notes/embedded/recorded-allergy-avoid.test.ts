/**
 * A 90 s follow-up recorded in Chromium in Festival voices (28 Nov, browser trial run 2), as the recogniser gave it,
 * word confidences included. The patient asked about penicillin for an infection ("… i had a rash [with it]"), and the
 * clinician answered "no i have recorded the penicillin allergy was rash so we will avoid penicillin", its "allergy"
 * heard at 0.36. The note listed "Penicillin." under Medications, Allergies stayed empty and the review said nothing:
 * a note telling the next prescriber that the patient takes the drug they react to.
 */
import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';
import { recordedTranscript, type RecordedLine } from './recorded-transcript';
import RECORDED from './recorded-allergy-gaps-90s.json';

const generate = (transcript: Parameters<EmbeddedNotesEngine['generateSync']>[0]['transcript']) =>
  new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const section = (r: ReturnType<typeof generate>, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
const ordered = (r: ReturnType<typeof generate>) => [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values].map((o) => o.drug_name);

describe('the recorded visit whose allergy was said back with an unsure "allergy" and "so we will avoid penicillin"', () => {
  const transcript = recordedTranscript(RECORDED as RecordedLine[]);
  const r = generate(transcript);

  it('lists penicillin as an allergy with its rash, in the section and the structured data', () => {
    expect(section(r, '48765-2')).toMatch(/^Penicillin causes rash\.$/m);
    expect(r.structured_data.allergies.values).toEqual([
      expect.objectContaining({ substance: 'penicillin', reaction: 'rash', verification: 'CONFIRMED', source_transcripts: expect.arrayContaining(['r15']) }),
    ]);
  });

  it('never as a medication taken or ordered, while the drugs taken stay', () => {
    const meds = section(r, '10160-0');
    expect(meds).not.toMatch(/penicillin/i);
    expect(meds).toMatch(/Metformin 500 mg twice daily\./);
    expect(meds).toMatch(/Lisinopril 10 mg/);
    expect(ordered(r)).not.toContain('penicillin');
    expect(section(r, '51847-2')).not.toMatch(/penicillin/i);
  });
});

describe('a drug named as an allergen, or to be avoided for a reaction, is no medication', () => {
  const note = (dialogue: string) => generate(dialogueToTranscript(dialogue));

  it('"allergic to X" keeps X off the list even where the patient mentions it elsewhere', () => {
    const r = note(`[doctor] what brings you in today
[patient] i have a cough and i wondered if i could take amoxicillin again
[doctor] are you allergic to any medications
[patient] yes i am allergic to amoxicillin it gives me hives
[doctor] okay we will avoid amoxicillin and i will prescribe azithromycin five hundred milligrams once a day for five days`);
    expect(section(r, '10160-0')).not.toMatch(/amoxicillin/i);
    expect(ordered(r)).not.toContain('amoxicillin');
    expect(ordered(r)).toContain('azithromycin');
    expect(r.structured_data.allergies.values).toEqual([expect.objectContaining({ substance: 'amoxicillin', reaction: 'hives' })]);
  });

  it('"avoid X" with a reaction said there states the allergy; "avoid X" alone orders nothing of X', () => {
    const r = note(`[doctor] how is your knee
[patient] it hurts and i took some ibuprofen last week
[doctor] ibuprofen gave you hives last time so we will avoid ibuprofen
[doctor] you can take acetaminophen five hundred milligrams every six hours as needed`);
    expect(r.structured_data.allergies.values).toEqual([expect.objectContaining({ substance: 'ibuprofen', reaction: 'hives' })]);
    expect(section(r, '10160-0')).not.toMatch(/ibuprofen/i);
    expect(ordered(r)).not.toContain('ibuprofen');
    const plain = note(`[doctor] how is your stomach
[patient] better since i stopped the ibuprofen
[doctor] good please avoid ibuprofen and take acetaminophen five hundred milligrams every six hours as needed`);
    expect(ordered(plain)).not.toContain('ibuprofen');
    expect(plain.structured_data.allergies.values).toEqual([]);
  });
});
