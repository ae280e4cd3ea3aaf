import { describe, expect, it } from 'vitest';
import type { SummarySection } from '@/lib/contracts/sessions';
import { emptyStructuredData } from '@/lib/contracts/sessions';
import { codedEvidence, evidenceSentences, sentencesUsing } from './evidence';

const summary: SummarySection[] = [
  {
    title: 'Plan',
    loinc_code: '18776-5',
    content: 'Increase lisinopril to 20 mg daily. Follow up in 4 weeks.',
    source_transcripts: ['a', 'b'],
    sentences: [
      { text: 'Increase lisinopril to 20 mg daily.', source_transcripts: ['a', 'b'], evidence: { transcript_ids: ['a', 'b'], start_ms: 1_000, end_ms: 4_000 } },
      { text: ' ', source_transcripts: [] },
      { text: 'Follow up in 4 weeks.', source_transcripts: [], template: true, evidence: null },
    ],
  },
  { title: 'HPI (edited)', loinc_code: '10164-2', content: 'Typed by the clinician.', source_transcripts: ['b'] },
  { title: 'Assessment', loinc_code: '51848-0', content: 'Hypertension.', source_transcripts: ['b'], sentences: [{ text: 'Hypertension.', source_transcripts: ['b'], evidence: { transcript_ids: ['b'], start_ms: 2_000, end_ms: 4_000 } }] },
];

describe('evidenceSentences', () => {
  it('lists the generated sentences with their evidence and template marks, skipping edited sections and blank sentences', () => {
    expect(evidenceSentences(summary).map((s) => [s.key, s.section, s.text, s.template, s.evidence?.start_ms ?? null])).toEqual([
      ['18776-5:0', 'Plan', 'Increase lisinopril to 20 mg daily.', false, 1_000],
      ['18776-5:2', 'Plan', 'Follow up in 4 weeks.', true, null],
      ['51848-0:0', 'Assessment', 'Hypertension.', false, 2_000],
    ]);
  });
});

describe('sentencesUsing', () => {
  it('finds every sentence that cites a transcript line, and none for a line no sentence used', () => {
    const all = evidenceSentences(summary);
    expect(sentencesUsing(all, 'b').map((s) => s.text)).toEqual(['Increase lisinopril to 20 mg daily.', 'Hypertension.']);
    expect(sentencesUsing(all, 'zzz')).toEqual([]);
  });
});

describe('codedEvidence', () => {
  it('gives each diagnosis and order (values, then partial values) a key, a label and its evidence', () => {
    const sd = emptyStructuredData();
    sd.diagnoses.values = [
      { codes: [{ code: 'HCC85', description: 'Heart failure', type: 'HCC' }, { code: 'I10', description: 'Essential hypertension', type: 'ICD10' }], diagnosis_note: '', evidence: { transcript_ids: ['b'], start_ms: 2_000, end_ms: 4_000 } },
    ];
    const order = { drug_name: 'lisinopril', medication_code: null, status: 'CHANGED', dosage: { quantity: 20, unit: 'MG', raw_value: '20 mg' }, frequency: { raw_value: null, structured_value: null }, medication_timing: null, route: null, duration_in_days: null, number_of_refills: null, instructions: null, metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' }, linked_diagnosis_codes: [] };
    sd.orders.medication_orders.values = [{ ...order, evidence: { transcript_ids: ['a'], start_ms: 1_000, end_ms: 2_000 } }];
    sd.orders.medication_orders.partial_values = [{ ...order, drug_name: 'metformin', dosage: { quantity: null, unit: null, raw_value: null }, evidence: null }];
    expect(codedEvidence(sd).map((c) => [c.key, c.section, c.text, c.evidence?.transcript_ids ?? null])).toEqual([
      ['dx:0', 'Diagnoses', 'I10 Essential hypertension', ['b']],
      ['rx:0', 'Medications', 'lisinopril 20 mg', ['a']],
      ['rx:1', 'Medications', 'metformin', null],
    ]);
  });
});
