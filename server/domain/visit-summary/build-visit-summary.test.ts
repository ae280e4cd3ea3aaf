import { describe, expect, it } from 'vitest';
import { emptyStructuredData, type MedicationOrder, type StructuredData, type SummarySection } from '@/lib/contracts/sessions';
import { buildVisitSummary } from './build-visit-summary';
import { readingGrade } from './reading-grade';

const ID = '00000000-0000-4000-8000-000000000001';

function order(o: Partial<MedicationOrder> & Pick<MedicationOrder, 'drug_name' | 'status'>): MedicationOrder {
  return {
    medication_code: null,
    dosage: { quantity: null, unit: null, raw_value: null },
    frequency: { raw_value: null, structured_value: null },
    medication_timing: null,
    route: null,
    duration_in_days: null,
    number_of_refills: null,
    instructions: null,
    metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT' },
    linked_diagnosis_codes: [],
    ...o,
  };
}

const section = (loinc_code: string, title: string, content: string): SummarySection => ({ loinc_code, title, content, source_transcripts: [] });

// A note written the way clinicians (and the notes engine) write: third person, abbreviations, long clauses.
const NOTE: SummarySection[] = [
  section('10164-2', 'History of present illness', 'The patient is a 63-year-old female with a two-week history of productive cough and subjective fevers.'),
  section(
    '51847-2',
    'Assessment and plan',
    [
      'Acute bronchitis: likely viral versus early bacterial superinfection given duration of symptoms.',
      'Start amoxicillin 500 mg PO TID for 7 days.',
      'Patient was advised to increase fluid intake and rest; acetaminophen as needed for fever.',
      'Hypertension: well controlled, continue lisinopril 10 mg daily.',
      'Follow up in 2 weeks for recheck of lung exam.',
      'Return to clinic or go to the emergency department if fever persists more than 3 days or shortness of breath develops.',
    ].join('\n'),
  ),
];

const STRUCTURED: StructuredData = {
  ...emptyStructuredData(),
  diagnoses: {
    values: [
      { codes: [{ code: 'J20.9', description: 'Acute bronchitis, unspecified', type: 'ICD10' }], diagnosis_note: '' },
      { codes: [{ code: 'I10', description: 'Essential (primary) hypertension', type: 'ICD10' }], diagnosis_note: '' },
    ],
  },
  orders: {
    ...emptyStructuredData().orders,
    medication_orders: {
      values: [
        order({
          drug_name: 'Amoxicillin',
          status: 'NEW',
          dosage: { quantity: 500, unit: 'MG', raw_value: '500 mg' },
          frequency: { raw_value: 'three times a day', structured_value: 'THREE_A_DAY' },
          route: 'ORAL',
          duration_in_days: 7,
        }),
        order({ drug_name: 'lisinopril', status: 'CONTINUED', dosage: { quantity: 10, unit: 'MG', raw_value: '10 mg' }, frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' } }),
        order({ drug_name: 'ibuprofen', status: 'DISCONTINUED' }),
      ],
      partial_values: [],
    },
  },
};

describe('buildVisitSummary', () => {
  const s = buildVisitSummary(ID, NOTE, STRUCTURED, 'Cough and fever for two weeks');

  it('lists each medicine change with drug, dose and how to take it, from the structured orders', () => {
    expect(s.medicines).toEqual([
      expect.objectContaining({ change: 'START', drug: 'amoxicillin', dose: '500 mg', how_to_take: 'three times a day, by mouth, for 7 days' }),
      expect.objectContaining({ change: 'KEEP', drug: 'lisinopril', dose: '10 mg', how_to_take: 'once a day' }),
      expect.objectContaining({ change: 'STOP', drug: 'ibuprofen', dose: null, how_to_take: null }),
    ]);
    expect(s.medicines[0]!.text).toBe('Start taking amoxicillin 500 mg. Take it three times a day, by mouth, for 7 days.');
    expect(s.medicines[2]!.text).toBe('Stop taking ibuprofen.');
  });

  it('files follow-up and return precautions apart from the plan, in plain words', () => {
    expect(s.follow_up).toEqual(['Follow up in 2 weeks for recheck of lung exam.']);
    expect(s.get_help).toHaveLength(1);
    expect(s.get_help[0]).toMatch(/^Return to clinic or go to the emergency room if fever lasts more than 3 days or trouble breathing develops\.$/);
    expect(s.plan).toContain('Please drink more fluids and rest.');
    // Sentences naming an ordered medicine are left to the medicine list rather than repeated.
    expect(s.plan.join(' ')).not.toMatch(/amoxicillin|lisinopril/i);
    expect(s.about).toEqual(['You came in for cough and fever for two weeks.', 'We talked about your acute bronchitis.', 'We talked about your high blood pressure.']);
  });

  it('never invents: every number and drug in the summary is in the note or its structured data', () => {
    const source = `${NOTE.map((n) => n.content).join(' ')} ${JSON.stringify(STRUCTURED)} cough and fever for two weeks`.toLowerCase();
    for (const n of s.text.match(/\d+/g) ?? []) expect(source, n).toContain(n);
    for (const m of s.medicines) expect(source).toContain(m.drug.toLowerCase());
    // The history section is not plan material.
    expect(s.text).not.toMatch(/63-year-old/);
  });

  it('reads at about a sixth-grade level (Flesch-Kincaid) although the note reads far above it', () => {
    const noteGrade = readingGrade(NOTE[1]!.content);
    expect(noteGrade).toBeGreaterThan(9);
    expect(s.reading_grade).toBeLessThanOrEqual(7);
    expect(s.reading_grade).toBe(readingGrade([...s.about, ...s.plan, ...s.medicines.map((m) => m.text), ...s.follow_up, ...s.get_help].join('\n')));
  });

  it('says plainly when the note has nothing for a part rather than filling it in, in words for the patient', () => {
    const empty = buildVisitSummary(ID, [section('51847-2', 'Assessment and plan', '')], emptyStructuredData(), null);
    expect(empty.plan).toEqual([]);
    expect(empty.medicines).toEqual([]);
    expect(empty.text).toContain('No medicine changes.');
    expect(empty.text).toContain('Why you came in\n- Ask your clinic if you have questions about this visit.');
    expect(empty.text).toContain('Your plan\n- No steps were set for you at this visit. Ask your clinic if you are not sure what to do next.');
    expect(empty.text).toContain('Follow-up\n- No follow-up visit was set. Call your clinic if you have questions.');
    expect(empty.text).toContain('When to get help\n- Call your clinic if you feel worse or have new problems. In an emergency, call 911.');
    // The clinician's words for the same: the patient has no "note".
    expect(empty.text).not.toMatch(/your note|no plan steps|lists no warning signs/i);
  });
});

/**
 * A clinician's browser trial: type 2 diabetes with metformin raised from 500 to 1000 mg twice a day, high blood
 * pressure with lisinopril 10 mg kept, new heartburn with omeprazole 20 mg started, a penicillin allergy (hives),
 * an A1c and follow-up in 3 months. Its summary said "Your plan — Your note has no plan steps for you." and
 * "We found: type 2 diabetes." for a condition the patient has had for years.
 */
describe('the trial visit of diabetes, blood pressure and heartburn', () => {
  const dx = (code: string, description: string, diagnosis_note = '') => ({ codes: [{ code, description, type: 'ICD10' as const }], diagnosis_note });
  const structured = (notes: { reflux?: string } = {}) =>
    ({
      ...emptyStructuredData(),
      diagnoses: {
        values: [
          dx('E11.9', 'Type 2 diabetes mellitus without complications', 'Not well controlled on metformin; increase the dose.'),
          dx('I10', 'Essential (primary) hypertension', 'Well controlled; continue lisinopril.'),
          dx('K21.9', 'Gastro-esophageal reflux disease without esophagitis', notes.reflux ?? 'Start omeprazole.'),
        ],
      },
      allergies: { values: [{ substance: 'Penicillin', substance_code: null, reaction: 'hives', verification: 'CONFIRMED' }] },
      orders: {
        ...emptyStructuredData().orders,
        medication_orders: {
          values: [
            order({ drug_name: 'metformin', status: 'CHANGED', dosage: { quantity: 1000, unit: 'MG', raw_value: null }, previous_dosage: { quantity: 500, unit: 'MG', raw_value: null }, frequency: { raw_value: 'twice daily', structured_value: 'TWO_A_DAY' } } as never),
            order({ drug_name: 'lisinopril', status: 'CONTINUED', dosage: { quantity: 10, unit: 'MG', raw_value: null }, frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' } }),
            order({ drug_name: 'omeprazole', status: 'NEW', dosage: { quantity: 20, unit: 'MG', raw_value: null }, frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' } }),
          ],
          partial_values: [],
        },
        service_orders: { values: [{ name: 'Hemoglobin A1c', category: 'LAB', code: null, timing: 'in 3 months' }] },
      },
    }) as unknown as StructuredData;
  // Every plan sentence names an ordered medicine or is the follow-up: none is left for "Your plan".
  const note = [
    section(
      '51847-2',
      'Assessment and plan',
      ['Type 2 diabetes: increase metformin to 1000 mg twice daily.', 'Hypertension: continue lisinopril 10 mg daily.', 'Heartburn: start omeprazole 20 mg daily.', 'Follow up in 3 months.'].join('\n'),
    ),
  ];
  const avs = buildVisitSummary(ID, note, structured(), null);

  it('leaves out an empty plan part when the medicines, tests and follow-up carry the plan', () => {
    expect(avs.plan).toEqual([]);
    expect(avs.medicines.map((m) => m.change)).toEqual(['CHANGE', 'KEEP', 'START']);
    expect(avs.follow_up).toEqual(['Follow up in 3 months.']);
    expect(avs.text).not.toContain('Your plan');
    expect(avs.text).not.toMatch(/no plan steps|No steps were set/);
    expect(avs.text).toContain('Your medicines\n- Change metformin from 500 mg to 1000 mg.');
  });

  it('names conditions managed at the visit as talked about, not as found', () => {
    expect(avs.about).toEqual(['We talked about your type 2 diabetes.', 'We talked about your high blood pressure.', 'We talked about your acid reflux.']);
    expect(avs.text).not.toMatch(/We found/);
  });

  it('still says "we found" for a diagnosis the note calls new, and only then', () => {
    expect(buildVisitSummary(ID, note, structured({ reflux: 'New diagnosis; start omeprazole.' }), null).about).toEqual([
      'We talked about your type 2 diabetes.',
      'We talked about your high blood pressure.',
      'We found a new condition: acid reflux.',
    ]);
    expect(buildVisitSummary(ID, note, structured({ reflux: 'Newly diagnosed today.' }), null).about[2]).toBe('We found a new condition: acid reflux.');
    expect(buildVisitSummary(ID, note, structured({ reflux: 'Not a new diagnosis; long-standing.' }), null).about[2]).toBe('We talked about your acid reflux.');
  });
});

describe('readingGrade', () => {
  it('scores short plain sentences low and long clinical ones high', () => {
    expect(readingGrade('Take one pill each day. Drink water. Rest at home.')).toBeLessThan(3);
    expect(readingGrade('Bacterial superinfection necessitates antimicrobial administration contingent upon radiographic confirmation of consolidation.')).toBeGreaterThan(15);
  });
});
