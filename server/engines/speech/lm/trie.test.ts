import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackoffScorer, prunedNgrams } from './merge.js';
import { readTrieLm } from './trie.js';

const hasConvert = spawnSync('sphinx_lm_convert', ['-help', 'yes'], { stdio: 'ignore' }).status !== null;

// A trigram model small enough to write out, converted to the sphinx trie format en-us.lm.bin uses.
const ARPA = `\\data\\
ngram 1=6
ngram 2=5
ngram 3=2

\\1-grams:
-99.0000\t<s>\t-0.3010
-0.6990\t</s>
-0.5229\tgo\t-0.2218
-0.6990\tforward\t-0.1249
-1.0000\tten\t-0.0969
-1.0000\tmeters

\\2-grams:
-0.1549\t<s> go\t-0.0458
-0.3010\tgo forward\t-0.0792
-0.6990\tforward ten
-0.2218\tten meters
-0.3979\tmeters </s>

\\3-grams:
-0.0969\t<s> go forward
-0.2218\tgo forward ten

\\end\\
`;

describe.skipIf(!hasConvert)('sphinx trie language model reader', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trie-test-'));
  const bin = path.join(dir, 'small.lm.bin');
  fs.writeFileSync(path.join(dir, 'small.lm'), ARPA);
  spawnSync('sphinx_lm_convert', ['-i', path.join(dir, 'small.lm'), '-o', bin], { stdio: 'ignore' });

  it('reads every n-gram with the probabilities and backoffs of the ARPA it was built from', () => {
    const m = readTrieLm(bin);
    expect(m.words).toEqual(['<s>', '</s>', 'go', 'forward', 'ten', 'meters']);
    expect(m.uniProb[2]).toBeCloseTo(-0.5229, 3);
    expect(m.uniBo[3]).toBeCloseTo(-0.1249, 3);
    expect([...m.bigrams.keys()].sort()).toEqual(['<s> go', 'forward ten', 'go forward', 'meters </s>', 'ten meters']);
    // Quantised to 16 bits per value: equal to the ARPA's within the bins' spread.
    expect(m.bigrams.get('go forward')![0]).toBeCloseTo(-0.301, 2);
    expect(m.bigrams.get('go forward')![1]).toBeCloseTo(-0.0792, 2);
    expect([...m.trigrams.keys()].sort()).toEqual(['<s> go forward', 'go forward ten']);
    expect(m.trigrams.get('go forward ten')).toBeCloseTo(-0.2218, 2);
  });

  it('scores by backoff as the library does, and prunes to the most probable n-grams', () => {
    const m = readTrieLm(bin);
    const s = new BackoffScorer(m);
    expect(s.logProb('ten', ['go', 'forward'])).toBeCloseTo(-0.2218, 2);
    // No "forward ten meters" trigram: backoff of "forward ten" (none, 0) + p(meters | ten).
    expect(s.logProb('meters', ['forward', 'ten'])).toBeCloseTo(-0.2218, 2);
    // No "go ten" bigram: backoff of go + p(ten).
    expect(s.logProb('ten', ['go'])).toBeCloseTo(-0.2218 - 1.0, 2);
    expect(s.logProb('lisinopril', [])).toBe(-Infinity);
    // By joint probability: p(go) p(forward | go) p(ten | go forward) beats the sentence start's.
    const p = prunedNgrams(m, (w) => w !== 'meters', 1, 1);
    expect(p.trigrams).toEqual(['go forward ten']);
    expect(p.bigrams).toEqual(['go forward']);
    // Sentence starts count as frequent histories (<s> itself is never predicted, log10 p = -99).
    const q = prunedNgrams(m, (w) => w !== 'meters', 2, 0);
    expect(q.bigrams.sort()).toEqual(['<s> go', 'go forward']);
  });
});
