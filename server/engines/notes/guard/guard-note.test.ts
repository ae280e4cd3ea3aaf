import { describe, expect, it } from 'vitest';
import { checkNoteFaithfulness } from '../faithfulness/index';
import type { NoteRequest, NoteResult } from '../types';
import { editSection } from './edit-section';
import { guardNote } from './guard-note';
import { trimSpan } from './trim-span';

const req: NoteRequest = {
  transcript: [
    { transcriptId: 'a', speaker: 'CLINICIAN', text: 'Continue metformin 500 mg twice a day.', startMs: 0, endMs: 1 },
    { transcriptId: 'b', speaker: 'PATIENT', text: 'My right knee hurts when I climb stairs.', startMs: 1, endMs: 2 },
  ],
  sections: [{ loinc: '51847-2' }],
  preferences: { verbosity: 'BALANCED', sectionFormat: {} },
  emrContext: { medications: [{ name: 'lisinopril' }], problems: [] },
};
const empty = { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] }, service_orders: { values: [] } }, allergies: { values: [] }, section_structured_values: [] };
const plan = (sentences: string[]): NoteResult => ({
  summary: [{ title: 'ASSESSMENT AND PLAN', content: sentences.join(' '), loinc_code: '51847-2', source_transcripts: ['a'], sentences: sentences.map((text) => ({ text, source_transcripts: ['a'] })) }],
  structured_data: empty,
});

describe('guardNote', () => {
  it('cuts the clause with the invented drug out of a sentence and keeps the rest, listing the clause as a span', () => {
    const { note, decision } = guardNote(plan(['Continue metformin 500 mg twice a day, and start warfarin 5 mg daily.']), req, 'remove');
    expect(note.summary[0].content).toBe('Continue metformin 500 mg twice a day.');
    expect(note.left_out).toEqual([{ reason: 'UNSUPPORTED', kind: 'span', text: 'start warfarin 5 mg daily', loinc_code: '51847-2', source_transcripts: ['a'] }]);
    expect(decision).toMatchObject({ mode: 'remove', remaining: 0, removed: { span: 1 } });
    expect(checkNoteFaithfulness(note, req.transcript).unsupported).toEqual([]);
  });

  it('treats what the session context states as supported', () => {
    const { note } = guardNote(plan(['Continue metformin 500 mg twice a day.', 'She also takes lisinopril.']), req, 'remove');
    expect(note.summary[0].sentences!.map((s) => s.text)).toEqual(['Continue metformin 500 mg twice a day.', 'She also takes lisinopril.']);
    expect(note.left_out).toBeUndefined();
  });

  it('drops a sentence nothing in the visit holds, even without a checkable fact', () => {
    const { note, decision } = guardNote(plan(['Continue metformin 500 mg twice a day.', 'Spoke at length about the weather in Lisbon.']), req, 'remove');
    expect(note.summary[0].content).toBe('Continue metformin 500 mg twice a day.');
    expect(decision.noEvidence).toBe(1);
    expect(note.left_out?.[0]).toMatchObject({ kind: 'sentence', text: 'Spoke at length about the weather in Lisbon.' });
  });

  it('in record mode changes nothing and counts what it found', () => {
    const before = plan(['Start warfarin 5 mg daily.']);
    const { note, decision } = guardNote(before, req, 'record');
    expect(note).toBe(before);
    expect(decision).toMatchObject({ mode: 'record', removed: {} });
    expect(decision.remaining).toBeGreaterThan(0);
    expect(decision.factKinds.drug).toBe(1);
  });

  it('keeps the engine\'s own left_out items ahead of its removals', () => {
    const low = { reason: 'LOW_CONFIDENCE' as const, kind: 'span' as const, text: 'mumbled words', source_transcripts: ['b'] };
    const { note } = guardNote({ ...plan(['Start warfarin 5 mg daily.']), left_out: [low] }, req, 'remove');
    expect(note.left_out?.map((l) => l.reason)).toEqual(['LOW_CONFIDENCE', 'UNSUPPORTED']);
    expect(note.summary[0].content).toBe('');
  });
});

describe('trimSpan and editSection', () => {
  it('will not trim a sentence that is one clause', () => {
    expect(trimSpan('Start warfarin 5 mg daily.', [{ kind: 'drug', key: 'warfarin', text: 'warfarin' }])).toBeUndefined();
  });

  it('takes a bullet out with its sentence', () => {
    const s = { title: 'PLAN', content: '- Start warfarin.\n- Continue metformin.', loinc_code: '18776-5', source_transcripts: [], sentences: [{ text: 'Start warfarin.', source_transcripts: [] }, { text: 'Continue metformin.', source_transcripts: [] }] };
    expect(editSection(s, 'Start warfarin.')).toMatchObject({ content: '- Continue metformin.', sentences: [{ text: 'Continue metformin.' }] });
  });
});
