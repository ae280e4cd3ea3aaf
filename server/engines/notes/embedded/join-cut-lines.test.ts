import { describe, expect, it } from 'vitest';
import type { TranscriptLine } from '../types';
import { joinCutLines, withJoinedIds } from './join-cut-lines';

const line = (id: string, speaker: TranscriptLine['speaker'], text: string, startMs: number, endMs: number): TranscriptLine => ({ transcriptId: id, speaker, text, startMs, endMs });

describe('joinCutLines', () => {
  it('joins a line of the same speaker that starts soon after on a word no sentence starts with', () => {
    const { lines, joined } = joinCutLines([line('a', 'PATIENT', 'it has been running around one fifty', 0, 3000), line('b', 'PATIENT', 'over ninety five', 3600, 5000)]);
    expect(lines.map((l) => l.text)).toEqual(['it has been running around one fifty over ninety five']);
    expect(lines[0]).toMatchObject({ transcriptId: 'a', startMs: 0, endMs: 5000 });
    expect(joined.get('a')).toEqual(['b']);
  });
  it('keeps apart another speaker, a long pause, a finished sentence, and a line that starts as sentences do', () => {
    for (const [a, b] of [
      [line('a', 'PATIENT', 'one fifty', 0, 1000), line('b', 'CLINICIAN', 'over ninety five', 1200, 2000)],
      [line('a', 'PATIENT', 'one fifty', 0, 1000), line('b', 'PATIENT', 'over ninety five', 4000, 5000)],
      [line('a', 'PATIENT', 'I take one.', 0, 1000), line('b', 'PATIENT', 'twice a day', 1200, 2000)],
      [line('a', 'PATIENT', 'my knee hurts', 0, 1000), line('b', 'PATIENT', 'and my back too', 1200, 2000)],
    ]) expect(joinCutLines([a, b]).lines).toHaveLength(2);
  });
  it('names the joined lines wherever the result names the kept one', () => {
    const out = withJoinedIds({ summary: [{ source_transcripts: ['a', 'c'], sentences: [{ source_transcripts: ['a'] }] }] }, new Map([['a', ['b']]]));
    expect(out).toEqual({ summary: [{ source_transcripts: ['a', 'b', 'c'], sentences: [{ source_transcripts: ['a', 'b'] }] }] });
  });
});
