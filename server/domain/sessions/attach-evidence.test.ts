import { describe, expect, it } from 'vitest';
import { emptyStructuredData, type ContentResponse, type MedicationOrder } from '@/lib/contracts/sessions';
import { medicationOrder } from '../../test/medication-order';
import { attachEvidence, evidenceOf } from './attach-evidence';

const entries = [
  { id: 'b', startMs: 4_000, endMs: 6_500 },
  { id: 'a', startMs: 1_000, endMs: 3_000 },
  { id: 'c', startMs: 7_000, endMs: 9_000 },
];
const byId = new Map(entries.map((e) => [e.id, e]));

const order = (source?: string[]): MedicationOrder => medicationOrder({ medication_code: null, ...(source ? { source_transcripts: source } : {}) });

describe('evidenceOf', () => {
  it('orders the cited entries as spoken and spans from the earliest start to the latest end', () => {
    expect(evidenceOf(['c', 'a', 'a'], byId)).toEqual({ transcript_ids: ['a', 'c'], start_ms: 1_000, end_ms: 9_000 });
  });
  it('is null when no cited id is a transcript entry (context ids, replaced live entries)', () => {
    expect(evidenceOf(['context:visit', 'gone'], byId)).toBeNull();
    expect(evidenceOf([], byId)).toBeNull();
    expect(evidenceOf(undefined, byId)).toBeNull();
  });
});

describe('attachEvidence', () => {
  it('adds evidence to sentences, diagnoses and orders and keeps template marks', () => {
    const sd = emptyStructuredData();
    sd.diagnoses.values = [{ codes: [{ code: 'I10', description: 'Essential hypertension', type: 'ICD10' }], diagnosis_note: '', source_transcripts: ['b'] }];
    sd.orders.medication_orders.values = [order(['c'])];
    sd.orders.medication_orders.partial_values = [order()];
    const content: ContentResponse = {
      summary: [
        {
          title: 'Plan',
          content: 'Increase lisinopril to 20 mg daily. Return in 4 weeks.',
          loinc_code: '18776-5',
          source_transcripts: ['b', 'c'],
          sentences: [
            { text: 'Increase lisinopril to 20 mg daily.', source_transcripts: ['c', 'b'] },
            { text: 'Return in 4 weeks.', source_transcripts: [], template: true },
          ],
        },
        { title: 'Edited', content: 'typed by the clinician', loinc_code: '10164-2', source_transcripts: ['a'] },
      ],
      structured_data: sd,
    };
    const out = attachEvidence(content, entries);
    expect(out.summary[0]!.sentences).toEqual([
      { text: 'Increase lisinopril to 20 mg daily.', source_transcripts: ['c', 'b'], evidence: { transcript_ids: ['b', 'c'], start_ms: 4_000, end_ms: 9_000 } },
      { text: 'Return in 4 weeks.', source_transcripts: [], template: true, evidence: null },
    ]);
    expect(out.summary[1]).toEqual(content.summary[1]);
    expect(out.structured_data.diagnoses.values[0]!.evidence).toEqual({ transcript_ids: ['b'], start_ms: 4_000, end_ms: 6_500 });
    expect(out.structured_data.orders.medication_orders.values[0]!.evidence).toEqual({ transcript_ids: ['c'], start_ms: 7_000, end_ms: 9_000 });
    expect(out.structured_data.orders.medication_orders.partial_values[0]!.evidence).toBeNull();
  });
});
