/**
 * Clinical terms for the bench's recall figures: drug names (RxNorm ingredients) and diagnosis words
 * (ICD-10-CM descriptions), and per encounter the "context" a session would carry: the terms its gold note
 * names, standing in for the EMR medications and problems and the context diagnoses a partner sends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { normalizeWords } from '../../server/engines/speech/lm/normalize.js';
import { ACI_DIR } from './corpus.js';

const CODESETS = path.resolve(ACI_DIR, '../codesets');
// Words of ICD-10-CM descriptions that say nothing about the condition.
const STOP = new Set(
  'unspecified specified without other elsewhere classified initial encounter subsequent sequela involving complication complications associated condition conditions disorder disorders disease diseases multiple single chronic acute bilateral unilateral history status following caused region sites site mention nature unknown'.split(' '),
);

export interface TermSets {
  drugs: Set<string>;
  diagnoses: Set<string>;
}

export function termSets(): TermSets | null {
  const rx = path.join(CODESETS, 'rxnorm_rxnav_in_pin_min_scd.csv');
  const icd = path.join(CODESETS, 'icd10cm-codes-2026.txt');
  if (!fs.existsSync(rx) || !fs.existsSync(icd)) return null;
  const drugs = new Set<string>();
  for (const line of fs.readFileSync(rx, 'utf8').split('\n')) {
    const m = /^\d+,([a-z]{4,20}),IN,/i.exec(line);
    if (m) drugs.add(m[1]!.toLowerCase());
  }
  const diagnoses = new Set<string>();
  for (const line of fs.readFileSync(icd, 'utf8').split('\n')) {
    for (const w of line.slice(8).toLowerCase().split(/[^a-z]+/)) if (w.length >= 6 && !STOP.has(w) && !drugs.has(w)) diagnoses.add(w);
  }
  return { drugs, diagnoses };
}

/** Spoken-form tokens, as the WER scorer sees them. */
const tokens = (text: string) => normalizeWords(text);

/** The encounter's terms of one kind that its note names (its "context"). */
export function contextTerms(note: string, set: Set<string>): string[] {
  return [...new Set(tokens(note).filter((w) => set.has(w)))];
}

/** Occurrences of the set's terms in the reference that the hypothesis also has (bag of words). */
export function termRecall(reference: string, hypothesis: string, set: Set<string>): { hit: number; total: number } {
  const count = (ws: string[]) => {
    const m = new Map<string, number>();
    for (const w of ws) if (set.has(w)) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const ref = count(tokens(reference));
  const hyp = count(tokens(hypothesis));
  let hit = 0;
  let total = 0;
  for (const [w, c] of ref) {
    total += c;
    hit += Math.min(c, hyp.get(w) ?? 0);
  }
  return { hit, total };
}
