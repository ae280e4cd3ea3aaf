import { describe, expect, it } from 'vitest';
import type { NoteReviewItem } from '@/lib/contracts/note-review';
import { reviewOutcome, undecided, type Decisions } from './review-decisions';

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
});
