import { describe, expect, it } from 'vitest';
import { noteSentences } from './note-sentences';

describe('noteSentences', () => {
  it('splits plain text by heading, line and sentence, without bullets or list numbers', () => {
    expect(noteSentences('HISTORY OF PRESENT ILLNESS\nShe has knee pain. It started 2 weeks ago.\n\nASSESSMENT AND PLAN\n1. Knee pain.\n• Ice.')).toEqual([
      { section: 'HISTORY OF PRESENT ILLNESS', text: 'She has knee pain.', claimed: [] },
      { section: 'HISTORY OF PRESENT ILLNESS', text: 'It started 2 weeks ago.', claimed: [] },
      { section: 'ASSESSMENT AND PLAN', text: 'Knee pain.', claimed: [] },
      { section: 'ASSESSMENT AND PLAN', text: 'Ice.', claimed: [] },
    ]);
  });

  it('uses the engine\'s sentences with their cited entries, and adds the problem headings', () => {
    const out = noteSentences({
      summary: [{ title: 'ASSESSMENT AND PLAN', loinc_code: '51847-2', content: '1. Hypertension.\nMedical Treatment: Start lisinopril.', source_transcripts: ['t3'], sentences: [{ text: 'Start lisinopril.', source_transcripts: ['t3'] }] }],
    });
    expect(out).toEqual([
      { section: 'ASSESSMENT AND PLAN', loinc: '51847-2', text: 'Hypertension.', claimed: [] },
      { section: 'ASSESSMENT AND PLAN', loinc: '51847-2', text: 'Start lisinopril.', claimed: ['t3'] },
    ]);
  });
});
