import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from '../embedded/dialogue';
import { buildEvidenceIndex } from './build-evidence-index';
import { overlapEvidence } from './overlap-evidence';

const entries = buildEvidenceIndex(dialogueToTranscript(`[doctor] How did it start?
[patient] It started on the right side and moved over to the left side of my back.
[doctor] Were you able to keep playing?
[patient] No, I had to stop.`));

describe('overlapEvidence', () => {
  it('finds the entry a sentence was written from', () => {
    expect(overlapEvidence('It started on the right side and moved to the left side of her back.', entries, new Set())).toEqual(['t2']);
  });

  it('prefers the cited entries when they hold the sentence', () => {
    expect(overlapEvidence('The pain moved over to the left side.', entries, new Set(['t2']))).toEqual(['t2']);
  });

  it('joins a question and its answer when only the pair holds the sentence', () => {
    expect(overlapEvidence('She was not able to keep playing and had to stop.', entries, new Set())).toEqual(['t3', 't4']);
  });

  it('finds nothing for words nobody said', () => {
    expect(overlapEvidence('The weather was discussed at length.', entries, new Set(['t1']))).toEqual([]);
  });
});
