import { describe, expect, it } from 'vitest';
import { rouge, rougeTokens, lcsLength } from './rouge';

describe('rouge (rouge_score semantics)', () => {
  it('tokenises like rouge_score: lower case, punctuation to spaces, Porter stems for tokens > 3 chars', () => {
    expect(rougeTokens('The patient DENIES chest-pains; running.')).toEqual(['the', 'patient', 'deni', 'chest', 'pain', 'run']);
    expect(rougeTokens('was has')).toEqual(['was', 'has']);
  });
  it('scores identical text 1 and disjoint text 0', () => {
    expect(rouge('the cat sat', 'the cat sat').rouge1.f1).toBe(1);
    expect(rouge('the cat sat', 'a dog ran').rouge2.f1).toBe(0);
  });
  it('matches hand-computed ROUGE-1/2/L', () => {
    // ref: the cat sat on the mat (6); hyp: the cat lay on the mat (6)
    const s = rouge('the cat sat on the mat', 'the cat lay on the mat');
    expect(s.rouge1.f1).toBeCloseTo(5 / 6, 6);
    expect(s.rouge2.f1).toBeCloseTo(3 / 5, 6);
    expect(s.rougeL.f1).toBeCloseTo(5 / 6, 6);
    expect(lcsLength(['a', 'b', 'c', 'd'], ['b', 'd', 'a'])).toBe(2);
  });
});
