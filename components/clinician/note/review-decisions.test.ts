import { describe, expect, it } from 'vitest';
import { REVIEW_ITEM_KINDS, type NoteReviewItem } from '@/lib/contracts/note-review';
import { KIND_LABEL, kindLabel, reviewOutcome, undecided, type Decisions } from './review-decisions';

const item = (id: string, kind: NoteReviewItem['kind'], text: string): NoteReviewItem => ({ id, kind, text, detail: '', loinc_code: '10160-0', section_title: 'Medications', source_transcripts: [] });
const clash = item('c', 'CONTRADICTION', 'Lisinopril 10 mg daily.');
const edited = item('e', 'EDITED_SECTION', 'Medications');
const low = item('l', 'LOW_CONFIDENCE', 'and the metformin');

describe('review decisions', () => {
  it('sends each listed decision and keeps an item an edit resolved after the review stopped listing it', () => {
    const decisions: Decisions = { c: { item: clash, decision: 'RESOLVED' }, e: { item: edited, decision: 'ACKNOWLEDGED' }, l: { item: low, decision: 'ACKNOWLEDGED' } };
    // After the edit the contradiction is gone from the list; an acknowledged item that left the list is not sent.
    expect(reviewOutcome([edited], decisions)).toEqual({
      attested: true,
      items: [
        { id: 'e', kind: 'EDITED_SECTION', text: 'Medications', loinc_code: '10160-0', decision: 'ACKNOWLEDGED' },
        { id: 'c', kind: 'CONTRADICTION', text: 'Lisinopril 10 mg daily.', loinc_code: '10160-0', decision: 'RESOLVED' },
      ],
    });
  });

  it('names the listed items that still need a decision', () => {
    expect(undecided([clash, edited, low], { e: { item: edited, decision: 'ACKNOWLEDGED' } }).map((i) => i.id)).toEqual(['c', 'l']);
  });

  it('labels every kind the review lists, the implausible dose too, and sends its decision', () => {
    for (const kind of REVIEW_ITEM_KINDS) expect(KIND_LABEL[kind], kind).toMatch(/\w/);
    expect(KIND_LABEL.IMPLAUSIBLE_DOSE).toBe('Dose unusual for the drug');
    const dose: NoteReviewItem = { ...item('d', 'IMPLAUSIBLE_DOSE', 'lisinopril 10 g daily'), loinc_code: null, section_title: null };
    expect(undecided([dose], {}).map((i) => i.kind)).toEqual(['IMPLAUSIBLE_DOSE']);
    expect(reviewOutcome([dose], { d: { item: dose, decision: 'ACKNOWLEDGED' } }).items).toEqual([
      { id: 'd', kind: 'IMPLAUSIBLE_DOSE', text: 'lisinopril 10 g daily', loinc_code: null, decision: 'ACKNOWLEDGED' },
    ]);
  });

  it('badges a pause as the clinician\'s own pause and any other stretch not recorded as not recorded', () => {
    const gap = (text: string): NoteReviewItem => ({ ...item('g', 'NOT_RECORDED', text), loinc_code: null, section_title: null });
    expect(kindLabel(gap('Recording paused: 4 s at 0:05'))).toBe('Recording paused');
    expect(kindLabel(gap('Not recorded: 12 s at 1:10'))).toBe('Not recorded');
    expect(kindLabel(clash)).toBe(KIND_LABEL.CONTRADICTION);
  });
});
