/**
 * Trigram language models: Witten-Bell interpolated estimation per corpus, linear mixture of corpora
 * and unigram lists with weights fitted by EM on held-out text, written as an ARPA backoff model.
 */

export const BOS = '<s>';
export const EOS = '</s>';

export interface Scorer {
  /** p(w | h), h = up to two preceding words. */
  prob(w: string, h: string[]): number;
}

/** Witten-Bell interpolated trigram over a fixed vocabulary. */
export class WittenBellTrigram implements Scorer {
  readonly counts: Map<string, number>[] = [new Map(), new Map(), new Map()];
  /** Per history (order 0 = empty history): total continuation count and distinct continuations. */
  private hist: Map<string, { n: number; t: number }>[] = [new Map(), new Map(), new Map()];

  constructor(
    sentences: Iterable<string[]>,
    private readonly vocabSize: number,
    inVocab: (w: string) => boolean,
  ) {
    for (const s of sentences) {
      const toks = [BOS, ...s.filter(inVocab), EOS];
      for (let i = 1; i < toks.length; i++) {
        for (let n = 1; n <= 3 && i - n + 1 >= 0; n++) {
          const key = toks.slice(i - n + 1, i + 1).join(' ');
          const map = this.counts[n - 1]!;
          const c = map.get(key) ?? 0;
          map.set(key, c + 1);
          const h = toks.slice(i - n + 1, i).join(' ');
          const hs = this.hist[n - 1]!.get(h) ?? { n: 0, t: 0 };
          hs.n++;
          if (c === 0) hs.t++;
          this.hist[n - 1]!.set(h, hs);
        }
      }
    }
  }

  prob(w: string, h: string[]): number {
    const uni = this.hist[0]!.get('')!;
    let p = ((this.counts[0]!.get(w) ?? 0) + uni.t / this.vocabSize) / (uni.n + uni.t);
    for (let n = 2; n <= 3; n++) {
      if (h.length < n - 1) break;
      const hist = h.slice(h.length - (n - 1)).join(' ');
      const hs = this.hist[n - 1]!.get(hist);
      if (!hs) break;
      const c = this.counts[n - 1]!.get(`${hist} ${w}`) ?? 0;
      p = (c + hs.t * p) / (hs.n + hs.t);
    }
    return p;
  }
}

/** A unigram distribution (general English frequencies, a drug-name list). */
export class Unigram implements Scorer {
  private total: number;
  constructor(private readonly weights: Map<string, number>) {
    this.total = [...weights.values()].reduce((a, b) => a + b, 0);
  }
  prob(w: string): number {
    return (this.weights.get(w) ?? 0) / this.total;
  }
}

export class Mixture implements Scorer {
  constructor(
    readonly parts: Scorer[],
    public weights: number[],
  ) {}
  prob(w: string, h: string[]): number {
    let p = 0;
    for (let k = 0; k < this.parts.length; k++) p += this.weights[k]! * this.parts[k]!.prob(w, h);
    return p;
  }
}

function* events(sentences: string[][], inVocab: (w: string) => boolean): Generator<[string, string[]]> {
  for (const s of sentences) {
    const toks = [BOS, ...s.filter(inVocab), EOS];
    for (let i = 1; i < toks.length; i++) yield [toks[i]!, toks.slice(Math.max(0, i - 2), i)];
  }
}

/** Fits mixture weights by expectation-maximisation on held-out sentences (maximum likelihood). */
export function fitWeights(parts: Scorer[], heldOut: string[][], inVocab: (w: string) => boolean, iterations = 20): number[] {
  const ev = [...events(heldOut, inVocab)];
  const probs = ev.map(([w, h]) => parts.map((p) => p.prob(w, h)));
  let lambda = parts.map(() => 1 / parts.length);
  for (let it = 0; it < iterations; it++) {
    const acc = parts.map(() => 0);
    for (const pk of probs) {
      const tot = pk.reduce((a, p, k) => a + lambda[k]! * p, 0);
      if (tot <= 0) continue;
      pk.forEach((p, k) => (acc[k]! += (lambda[k]! * p) / tot));
    }
    const s = acc.reduce((a, b) => a + b, 0);
    lambda = acc.map((a) => a / s);
  }
  return lambda;
}

export function perplexity(model: Scorer, sentences: string[][], inVocab: (w: string) => boolean): { ppl: number; oov: number; tokens: number } {
  let logSum = 0;
  let n = 0;
  let oov = 0;
  for (const s of sentences) for (const w of s) if (!inVocab(w)) oov++;
  for (const [w, h] of events(sentences, inVocab)) {
    logSum += Math.log(model.prob(w, h));
    n++;
  }
  return { ppl: Math.exp(-logSum / n), oov, tokens: n + oov };
}

const log10 = (p: number) => (p > 0 ? Math.log10(p) : -99);
const fmt = (x: number) => x.toFixed(6);

/**
 * Writes the mixture as an ARPA backoff model. Explicit n-grams are those seen in any trigram part (and
 * `extra`, e.g. a pruned general-English model's own n-grams);
 * every other probability comes from backoff, with weights that keep each history's distribution summing
 * to one over the vocabulary.
 */
export function writeArpa(model: Scorer, trigramParts: WittenBellTrigram[], vocab: string[], extra: { bigrams: Iterable<string>; trigrams: Iterable<string> } = { bigrams: [], trigrams: [] }): string {
  const explicit: Set<string>[] = [new Set(), new Set(extra.bigrams), new Set(extra.trigrams)];
  for (const part of trigramParts) for (let n = 2; n <= 3; n++) for (const k of part.counts[n - 1]!.keys()) explicit[n - 1]!.add(k);

  const p1 = new Map<string, number>();
  const words = [...vocab.filter((w) => w !== BOS && w !== EOS), EOS];
  let z = 0;
  for (const w of words) {
    const p = model.prob(w, []);
    p1.set(w, p);
    z += p;
  }
  for (const [w, p] of p1) p1.set(w, p / z);

  const byHist = (n: number) => {
    const m = new Map<string, string[]>();
    for (const k of explicit[n - 1]!) {
      const i = k.lastIndexOf(' ');
      const h = k.slice(0, i);
      const list = m.get(h) ?? [];
      list.push(k.slice(i + 1));
      m.set(h, list);
    }
    return m;
  };

  const p2 = new Map<string, number>();
  const bow1 = new Map<string, number>();
  for (const [h, ws] of byHist(2)) {
    let num = 1;
    let den = 1;
    for (const w of ws) {
      const p = model.prob(w, [h]);
      p2.set(`${h} ${w}`, p);
      num -= p;
      den -= p1.get(w) ?? 0;
    }
    bow1.set(h, Math.max(num, 1e-9) / Math.max(den, 1e-9));
  }
  const p3 = new Map<string, number>();
  const bow2 = new Map<string, number>();
  const lower2 = (v: string, w: string) => p2.get(`${v} ${w}`) ?? (bow1.get(v) ?? 1) * (p1.get(w) ?? 0);
  for (const [h, ws] of byHist(3)) {
    const [u, v] = h.split(' ') as [string, string];
    let num = 1;
    let den = 1;
    for (const w of ws) {
      const p = model.prob(w, [u, v]);
      p3.set(`${h} ${w}`, p);
      num -= p;
      den -= lower2(v, w);
    }
    bow2.set(h, Math.max(num, 1e-9) / Math.max(den, 1e-9));
  }

  const lines: string[] = ['\\data\\', `ngram 1=${words.length + 1}`, `ngram 2=${p2.size}`, `ngram 3=${p3.size}`, '', '\\1-grams:'];
  lines.push(`-99.000000\t${BOS}\t${fmt(log10(bow1.get(BOS) ?? 1))}`);
  for (const w of [...words].sort()) {
    const b = bow1.get(w);
    lines.push(`${fmt(log10(p1.get(w)!))}\t${w}${b !== undefined ? `\t${fmt(log10(b))}` : ''}`);
  }
  lines.push('', '\\2-grams:');
  for (const k of [...p2.keys()].sort()) {
    const b = bow2.get(k);
    lines.push(`${fmt(log10(p2.get(k)!))}\t${k}${b !== undefined ? `\t${fmt(log10(b))}` : ''}`);
  }
  lines.push('', '\\3-grams:');
  for (const k of [...p3.keys()].sort()) lines.push(`${fmt(log10(p3.get(k)!))}\t${k}`);
  lines.push('', '\\end\\', '');
  return lines.join('\n');
}
