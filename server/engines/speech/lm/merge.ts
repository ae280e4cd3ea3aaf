/**
 * Debian's general-English en-us trigram model as a Scorer over the build's vocabulary, and its own n-grams
 * pruned to the most probable, so that the offline build can merge it into one model (build-lm.ts) instead
 * of the decoder interpolating two models at run time.
 */
import type { Scorer } from './ngram.js';
import type { TrieNgrams } from './trie.js';

export class BackoffScorer implements Scorer {
  private readonly id: Map<string, number>;
  constructor(private readonly m: TrieNgrams) {
    this.id = new Map(m.words.map((w, i) => [w, i]));
  }

  /** log10 p(w | h) by the model's backoff; -Infinity for a word it lacks. */
  logProb(w: string, h: string[]): number {
    const wi = this.id.get(w);
    if (wi === undefined) return -Infinity;
    if (h.length >= 2) {
      const [h1, h2] = h.slice(-2) as [string, string];
      const t = this.m.trigrams.get(`${h1} ${h2} ${w}`);
      if (t !== undefined) return t;
      return (this.m.bigrams.get(`${h1} ${h2}`)?.[1] ?? 0) + this.logProb(w, [h2]);
    }
    if (h.length === 1) {
      const b = this.m.bigrams.get(`${h[0]} ${w}`);
      if (b) return b[0];
      const hi = this.id.get(h[0]!);
      return (hi === undefined ? 0 : this.m.uniBo[hi]!) + this.m.uniProb[wi]!;
    }
    return this.m.uniProb[wi]!;
  }

  prob(w: string, h: string[]): number {
    return 10 ** this.logProb(w, h);
  }

  unigram(w: string): number {
    const wi = this.id.get(w);
    return wi === undefined ? 0 : 10 ** this.m.uniProb[wi]!;
  }
}

/**
 * The model's own bigrams and trigrams over `inVocab` words, the `maxBigrams` / `maxTrigrams` most probable
 * by joint probability p(h) p(w | h) (a count cut-off's equivalent without the counts). A kept trigram keeps
 * its history bigram, which the ARPA format needs.
 */
export function prunedNgrams(m: TrieNgrams, inVocab: (w: string) => boolean, maxBigrams: number, maxTrigrams: number): { bigrams: string[]; trigrams: string[] } {
  const scorer = new BackoffScorer(m);
  // <s> is never predicted (-99) but starts every sentence: about one word in ten.
  const history = (h: string) => (h === '<s>' ? -1 : scorer.logProb(h, []));
  const top = (entries: [string, number][], n: number) => entries.sort((a, b) => b[1] - a[1]).slice(0, n).map(([k]) => k);
  const bi: [string, number][] = [];
  for (const [k, [lp]] of m.bigrams) {
    const [h, w] = k.split(' ') as [string, string];
    if (inVocab(h) && inVocab(w)) bi.push([k, history(h) + lp]);
  }
  const tri: [string, number][] = [];
  for (const [k, lp] of m.trigrams) {
    const [h1, h2, w] = k.split(' ') as [string, string, string];
    if (inVocab(h1) && inVocab(h2) && inVocab(w)) tri.push([k, history(h1) + scorer.logProb(h2, [h1]) + lp]);
  }
  const trigrams = top(tri, maxTrigrams);
  const bigrams = new Set(top(bi, maxBigrams));
  for (const t of trigrams) bigrams.add(t.slice(0, t.lastIndexOf(' ')));
  return { bigrams: [...bigrams], trigrams };
}
