import { describe, expect, it } from 'vitest';
import { BUILTIN_STYLES } from '@/lib/info/note-styles';
import type { NoteResult, NoteSection } from '../../engines/notes/types';
import { applyNoteStyle, PREVISIT_PREFIX } from './apply-note-style';
import { resolveNoteStyle } from './resolve-note-style';
import { styleNoteRequest } from './style-note-request';

const section = (loinc: string, title: string, text: string, src: string[]): NoteSection => ({
  title,
  content: text,
  loinc_code: loinc,
  source_transcripts: src,
  sentences: [{ text, source_transcripts: src }],
});

const note: NoteResult = {
  summary: [
    section('10154-3', 'CHIEF COMPLAINT', 'Cough.', ['t1']),
    section('61150-9', 'SUBJECTIVE', 'Cough and fever for two weeks.', ['t1', 't2']),
    section('10187-3', 'REVIEW OF SYSTEMS', '• Respiratory: Endorses cough.', ['t2']),
    section('29545-1', 'PHYSICAL EXAMINATION', '', []),
    section('51848-0', 'ASSESSMENT', 'Acute bronchitis.', ['t4']),
    section('18776-5', 'PLAN', 'Start amoxicillin 500 mg three times daily.', ['t4']),
    section('10160-0', 'MEDICATIONS', 'Amoxicillin 500 mg three times daily.', ['t4']),
  ],
  structured_data: { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] } }, section_structured_values: [] } as unknown as NoteResult['structured_data'],
  left_out: [{ reason: 'LOW_CONFIDENCE', kind: 'span', text: 'the', loinc_code: '10187-3', source_transcripts: ['t2'] }],
};

describe('applyNoteStyle', () => {
  it('writes SOAP: four sections in order, gathered sentences keep their evidence', () => {
    const out = applyNoteStyle(note, BUILTIN_STYLES.SOAP);
    expect(out.summary.map((s) => s.title)).toEqual(['SUBJECTIVE', 'OBJECTIVE', 'ASSESSMENT', 'PLAN']);
    const subj = out.summary[0]!;
    expect(subj.loinc_code).toBe('61150-9');
    expect(subj.content).toBe('Chief complaint: Cough.\n\nCough and fever for two weeks.\n\nReview of systems: • Respiratory: Endorses cough.');
    expect(subj.sentences?.map((s) => s.source_transcripts)).toEqual([['t1'], ['t1', 't2'], ['t2']]);
    expect(subj.source_transcripts.sort()).toEqual(['t1', 't2']);
    expect(out.summary[1]!.content).toBe('');
    // What was left out of the review of systems is now under Subjective.
    expect(out.left_out?.[0]?.loinc_code).toBe('61150-9');
  });

  it('writes APSO with the assessment first', () => {
    expect(applyNoteStyle(note, BUILTIN_STYLES.APSO).summary.map((s) => s.title)).toEqual(['ASSESSMENT', 'PLAN', 'SUBJECTIVE', 'OBJECTIVE']);
  });

  it("marks a template's fixed wording and the pre-visit note as template text, with no evidence", () => {
    const style = resolveNoteStyle('template:0b7c8a2e-6a44-4d4e-9a57-1f0e2d3c4b5a', [
      {
        id: '0b7c8a2e-6a44-4d4e-9a57-1f0e2d3c4b5a',
        name: 'Mine',
        sections: [
          { loinc: '51848-0', heading: 'Impression', format: 'BULLETED', template_text: ['Differential reviewed.'] },
          { loinc: '61150-9', heading: 'Story', format: 'NARRATIVE' },
        ],
      },
    ])!;
    const out = applyNoteStyle(note, style, 'Follow up on blood pressure');
    expect(out.summary.map((s) => s.title)).toEqual(['Impression', 'Story']);
    expect(out.summary[0]!.content).toBe('• Differential reviewed.\n\nAcute bronchitis.');
    expect(out.summary[0]!.sentences?.[0]).toEqual({ text: 'Differential reviewed.', source_transcripts: [], template: true });
    expect(out.summary[1]!.sentences?.[0]).toEqual({ text: `${PREVISIT_PREFIX}Follow up on blood pressure`, source_transcripts: [], template: true });
  });

  it('asks the engine for every gathered section, in the bullets or prose the style says', () => {
    const style = resolveNoteStyle('SOAP')!;
    const req = styleNoteRequest(
      { transcript: [], sections: [{ loinc: '29545-1', precharted: [{ type: 'string', content: 'BP 120/80' }] }], preferences: { verbosity: 'BALANCED', sectionFormat: {} } },
      style,
    );
    expect(req.sections.map((s) => s.loinc)).toEqual(['10154-3', '61150-9', '10187-3', '29545-1', '30954-2', '51848-0', '18776-5', '10160-0']);
    expect(req.sections[3]!.precharted).toEqual([{ type: 'string', content: 'BP 120/80' }]);
    expect(resolveNoteStyle('template:0b7c8a2e-6a44-4d4e-9a57-1f0e2d3c4b5a', [])).toBeNull();
  });
});
