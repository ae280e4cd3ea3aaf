/**
 * The visit the notes-guard tests use, and the note a careless language model writes about it: true to the
 * visit in most sentences, but with an invented dose (metformin 1000 mg; 500 mg was said), an invented
 * diagnosis (heart failure, in the text and coded), an invented allergy (sulfa), a nonexistent ICD-10-CM code
 * for diabetes, and evidence ids that do not exist. The stand-in chat server (openai-chat-stand-in.ts) answers
 * with it; the note is built from the transcript lines the engine sent, so it cites their real ids.
 */
export const VISIT_TURNS = [
  { role: 'CLINICIAN' as const, text: 'We are following up on your high blood pressure and your diabetes today.' },
  { role: 'PATIENT' as const, text: 'I take my lisinopril ten milligrams every morning.' },
  { role: 'CLINICIAN' as const, text: 'Any chest pain?' },
  { role: 'PATIENT' as const, text: 'No chest pain.' },
  { role: 'CLINICIAN' as const, text: 'Do you have any allergies?' },
  { role: 'PATIENT' as const, text: 'I am allergic to penicillin. It gives me a rash.' },
  { role: 'CLINICIAN' as const, text: 'Your blood pressure is high. We will increase lisinopril to twenty milligrams daily.' },
  { role: 'CLINICIAN' as const, text: 'Continue metformin five hundred milligrams twice a day.' },
];

/** An id that no transcript entry has. */
export const FAKE_ID = 'entry-that-does-not-exist';

/** The invented items, as the tests look for them in left_out. */
export const INVENTED = { dose: /metformin.*1000/i, diagnosis: /heart failure|I50/i, allergy: /sulfa/i } as const;

type Line = { id: string; text: string };

export function inventingModelNote(lines: Line[]) {
  const find = (re: RegExp) => lines.filter((l) => re.test(l.text)).map((l) => l.id);
  const bp = find(/blood pressure/i);
  const allergy = find(/allerg|penicillin|rash/i);
  const increase = find(/increase|twenty|20/i);
  const metformin = find(/metformin|five hundred|500/i);
  const chest = find(/chest/i);
  return {
    sections: [
      {
        loinc_code: '10164-2',
        sentences: [
          { text: 'The patient presents for follow-up of her blood pressure and diabetes.', evidence: bp },
          { text: 'She denies chest pain.', evidence: chest },
          { text: 'She also has congestive heart failure.', evidence: bp },
        ],
      },
      {
        loinc_code: '48765-2',
        sentences: [
          { text: 'Allergic to penicillin, which causes a rash.', evidence: allergy },
          { text: 'Allergic to sulfa drugs.', evidence: [FAKE_ID] },
        ],
      },
      {
        loinc_code: '51847-2',
        sentences: [
          { text: 'Blood pressure is high; increase lisinopril to 20 mg daily.', evidence: [...increase, FAKE_ID] },
          { text: 'Continue metformin 1000 mg twice a day.', evidence: metformin },
        ],
      },
    ],
    diagnoses: [
      { description: 'Essential hypertension', icd10_code: 'I10', diagnosis_note: 'Blood pressure is high.', laterality: null, evidence: [FAKE_ID, ...bp] },
      { description: 'Type 2 diabetes mellitus', icd10_code: 'E11.999', diagnosis_note: 'On metformin.', laterality: null, evidence: metformin },
      { description: 'Congestive heart failure', icd10_code: 'I50.9', diagnosis_note: 'Stable.', laterality: null, evidence: [FAKE_ID] },
    ],
    medication_orders: [
      { drug_name: 'lisinopril', rxnorm_code: '29046', dose_quantity: 20, dose_unit: 'mg', frequency: 'DAILY', timing: null, route: 'oral', duration_in_days: null, number_of_refills: null, instructions: null, status: 'CHANGED', evidence: increase },
      { drug_name: 'metformin', rxnorm_code: '6809', dose_quantity: 1000, dose_unit: 'mg', frequency: 'TWO_A_DAY', timing: null, route: 'oral', duration_in_days: null, number_of_refills: null, instructions: null, status: 'CONTINUED', evidence: metformin },
    ],
  };
}
