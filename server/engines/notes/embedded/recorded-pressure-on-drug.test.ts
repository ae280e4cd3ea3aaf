/**
 * The same 90 s recorded follow-up as recorded-allergy-avoid.test.ts (Festival voices, 28 Nov). The clinician said "your
 * blood pressure today is one hundred fifty two over ninety four which is still high" to a patient "taking the lisinopril
 * ten milligrams": the note coded only the diabetes, so the hypertension the visit assessed was in neither the assessment
 * and plan nor the coded data. The history read "The patient reports pretty the patient takes their metformin …".
 */
import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';
import { recordedTranscript, type RecordedLine } from './recorded-transcript';
import RECORDED from './recorded-allergy-gaps-90s.json';

const generate = (transcript: Parameters<EmbeddedNotesEngine['generateSync']>[0]['transcript']) =>
  new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const section = (r: ReturnType<typeof generate>, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
const codes = (r: ReturnType<typeof generate>) => r.structured_data.diagnoses.values.map((d) => d.codes[0].code);

describe('the recorded follow-up whose blood pressure was "still high" on lisinopril', () => {
  const r = generate(recordedTranscript(RECORDED as RecordedLine[]));

  it('assesses hypertension in the plan with the clinician\'s words, and codes it with that line as evidence', () => {
    expect(section(r, '51847-2')).toMatch(/^\d\. Hypertension\.\n• Medical Reasoning: Their blood pressure today is 152\/94 which is still high\.$/m);
    expect(codes(r)).toEqual(expect.arrayContaining(['E11.9', 'I10']));
    expect(r.structured_data.diagnoses.values.find((d) => d.codes[0].code === 'I10')?.source_transcripts).toContain('r8');
  });

  it('writes the patient\'s "pretty well i take my metformin …" as what they take, not "reports pretty"', () => {
    const hpi = section(r, '10164-2');
    expect(hpi).toMatch(/^The patient takes their metformin 500 mg twice daily/);
    expect(hpi).not.toMatch(/reports pretty/);
  });
});

describe('a reading said to be high', () => {
  const note = (drugLine: string) =>
    generate(
      dialogueToTranscript(`[doctor] how have you been
[patient] doing well ${drugLine}
[doctor] your blood pressure today is one hundred fifty over ninety two which is high
[doctor] we will recheck it at your next visit`),
    );

  it('is hypertension in a patient taking a drug for it, and not otherwise', () => {
    expect(codes(note('i take my amlodipine five milligrams every day'))).toContain('I10');
    expect(codes(note('i take my ibuprofen when my back hurts'))).not.toContain('I10');
  });

  it('is not made hypertension by a drug the patient is allergic to', () => {
    expect(codes(note('i am allergic to lisinopril it gave me a cough'))).not.toContain('I10');
  });
});
