import { normalizeWords } from './lm/normalize.js';

export interface WerResult {
  errors: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  refWords: number;
  wer: number;
}

/**
 * Word error rate by Levenshtein alignment over normalised words. Filler tokens the recogniser may or may
 * not write ("um", "uh") are dropped from both sides so they neither count as errors nor hide them.
 */
const FILLERS = new Set(['um', 'uh', 'hmm', 'mm', 'ah', 'er', 'oh']);

export function wordErrorRate(reference: string, hypothesis: string): WerResult {
  const r = normalizeWords(reference).filter((w) => !FILLERS.has(w));
  const h = normalizeWords(hypothesis).filter((w) => !FILLERS.has(w));
  const n = r.length;
  const m = h.length;
  // Rolling rows with (cost, S, D, I) so the breakdown comes out of the same pass.
  type Cell = [number, number, number, number];
  let prev: Cell[] = Array.from({ length: m + 1 }, (_, j) => [j, 0, 0, j]);
  for (let i = 1; i <= n; i++) {
    const cur: Cell[] = [[i, 0, i, 0]];
    for (let j = 1; j <= m; j++) {
      const sub = prev[j - 1]!;
      const del = prev[j]!;
      const ins = cur[j - 1]!;
      const same = r[i - 1] === h[j - 1];
      const cs = sub[0] + (same ? 0 : 1);
      const cd = del[0] + 1;
      const ci = ins[0] + 1;
      if (cs <= cd && cs <= ci) cur.push([cs, sub[1] + (same ? 0 : 1), sub[2], sub[3]]);
      else if (cd <= ci) cur.push([cd, del[1], del[2] + 1, del[3]]);
      else cur.push([ci, ins[1], ins[2], ins[3] + 1]);
    }
    prev = cur;
  }
  const [errors, substitutions, deletions, insertions] = prev[m]!;
  return { errors, substitutions, deletions, insertions, refWords: n, wer: n ? errors / n : m ? 1 : 0 };
}
