import { stemmer } from 'stemmer';

/**
 * ROUGE as the `rouge_score` package computes it with use_stemmer=True: lower case, every
 * non-alphanumeric character to a space, Porter stemming of tokens longer than 3 characters,
 * F1 per note. ROUGE-L is the plain LCS over the whole text (not the newline-split Lsum).
 */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean)
    .map((t) => (t.length > 3 ? stemmer(t) : t));
}

export interface Score { precision: number; recall: number; f1: number }
const f = (overlap: number, p: number, r: number): Score => {
  const precision = p ? overlap / p : 0;
  const recall = r ? overlap / r : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
};

function ngrams(tokens: string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const k = tokens.slice(i, i + n).join(' ');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

export function rougeN(ref: string[], hyp: string[], n: number): Score {
  const r = ngrams(ref, n);
  const h = ngrams(hyp, n);
  let overlap = 0;
  for (const [k, c] of h) overlap += Math.min(c, r.get(k) ?? 0);
  return f(overlap, Math.max(0, hyp.length - n + 1), Math.max(0, ref.length - n + 1));
}

export function lcsLength(a: string[], b: string[]): number {
  const prev = new Uint32Array(b.length + 1);
  const cur = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev.set(cur);
  }
  return prev[b.length];
}

export function rougeL(ref: string[], hyp: string[]): Score {
  return f(lcsLength(ref, hyp), hyp.length, ref.length);
}

export function rouge(reference: string, hypothesis: string) {
  const r = rougeTokens(reference);
  const h = rougeTokens(hypothesis);
  return { rouge1: rougeN(r, h, 1), rouge2: rougeN(r, h, 2), rougeL: rougeL(r, h) };
}
