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
    expect(s.about).toEqual(['You came in for cough and fever for two weeks.', 'We found: acute bronchitis.', 'We found: high blood pressure.']);
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

  it('says plainly when the note has nothing for a part rather than filling it in', () => {
    const empty = buildVisitSummary(ID, [section('51847-2', 'Assessment and plan', '')], emptyStructuredData(), null);
    expect(empty.plan).toEqual([]);
    expect(empty.medicines).toEqual([]);
    expect(empty.text).toContain('No medicine changes.');
    expect(empty.text).toContain('Your note lists no warning signs.');
  });
});

describe('readingGrade', () => {
  it('scores short plain sentences low and long clinical ones high', () => {
    expect(readingGrade('Take one pill each day. Drink water. Rest at home.')).toBeLessThan(3);
    expect(readingGrade('Bacterial superinfection necessitates antimicrobial administration contingent upon radiographic confirmation of consolidation.')).toBeGreaterThan(15);
  });
});
