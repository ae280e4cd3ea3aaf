import { describe, expect, it } from 'vitest';
import { UnusableAnswer } from './openai-client';
import { extractJson, readNoteAnswer } from './openai-answer';

const note = { sections: [{ loinc_code: '10164-2', sentences: [{ text: 'Knee pain.', evidence: ['t1'] }] }], diagnoses: [], medication_orders: [] };

describe('reading the model\'s answer', () => {
  it('takes the JSON out of a code fence and a sentence around it, and drops trailing commas', () => {
    expect(extractJson('Sure! ```json\n{"a": [1, 2,], "b": {"c": 3,},}\n```')).toEqual({ a: [1, 2], b: { c: 3 } });
  });

  it('refuses JSON it would have to complete, and text with no object', () => {
    expect(() => extractJson('{"sections": [{"loinc_code": "10164-2"')).toThrow(UnusableAnswer);
    expect(() => extractJson('I cannot help with that.')).toThrow('answered no JSON object');
  });

  it('refuses an answer cut off at the token limit even when it parses', () => {
    expect(() => readNoteAnswer({ content: JSON.stringify(note), finishReason: 'length' })).toThrow(/token limit/);
    expect(readNoteAnswer({ content: JSON.stringify(note), finishReason: 'stop' })).toEqual(note);
  });

  it('names the path of a wrong shape, never the model\'s words', () => {
    const bad = { ...note, sections: [{ loinc_code: '10164-2', sentences: [{ text: 'Secret words.', evidence: 't1' }] }] };
    expect(() => readNoteAnswer({ content: JSON.stringify(bad), finishReason: 'stop' })).toThrow('answered JSON of the wrong shape (sections.0.sentences.0.evidence: invalid_type)');
  });
});
