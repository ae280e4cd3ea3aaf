/**
 * Sound-alike matching of recognised spans to the code sets. A recogniser that mishears a drug or a
 * condition still produces words that sound like it ("lisa no pril"); comparing CMU phone strings finds
 * the term. The session's context (EMR medications and problems, context orders and diagnoses) is what a
 * clinician expects to hear, so its terms are accepted at a looser distance than the rest of the code set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ICD10_CONCEPTS } from '@/server/codesets/builtin/concepts';
import { DRUG_CONCEPTS } from '@/server/codesets/builtin/drugs';
import type { NoteRequest } from '../types';
import { conditionMatcher, drugMatcher, tokenize } from './lexicon';
import TERM_PRONUNCIATIONS from './pronunciations.json';

export interface SoundTerm { term: string; id: string; kind: 'drug' | 'condition'; phones: string[] }

let recogniserDict: Map<string, string> | undefined;
/** The embedded recogniser's dictionary: every word it can output has its pronunciation there. */
function dictionary(): Map<string, string> {
  if (recogniserDict) return recogniserDict;
  recogniserDict = new Map();
  try {
    const file = path.join(process.cwd(), 'server/engines/speech/model/clinical.dict');
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const [w, ...ph] = line.trim().split(/\s+/);
      if (w && ph.length && !/\(\d+\)$/.test(w) && !recogniserDict.has(w)) recogniserDict.set(w, ph.join(' '));
    }
  } catch {
    // Without the speech model only the term words have pronunciations; spans with other words are not matched.
  }
  return recogniserDict;
}

export function phonesOf(words: string[]): string[] | undefined {
  const out: string[] = [];
  for (const w of words) {
    const p = (TERM_PRONUNCIATIONS as Record<string, string>)[w] ?? dictionary().get(w);
    if (!p) return undefined;
    out.push(...p.split(' '));
  }
  return out;
}

const VOWELS = new Set(['AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY', 'UH', 'UW']);
const PAIRS = new Set(['P B', 'T D', 'K G', 'F V', 'S Z', 'SH ZH', 'CH JH', 'TH DH', 'M N', 'N NG', 'S SH', 'Z ZH', 'T CH', 'D JH', 'R ER', 'L R'].flatMap((p) => [p, p.split(' ').reverse().join(' ')]));

function subCost(a: string, b: string): number {
  if (a === b) return 0;
  if (VOWELS.has(a) && VOWELS.has(b)) return 0.4;
  return PAIRS.has(`${a} ${b}`) ? 0.5 : 1;
}

/**
 * Phones as small integers, with the substitution costs and vowel flags looked up by them: a note from a
 * recording with many unsure words compares thousands of spans with thousands of terms, and building a
 * "A B" key per cell made that half a CPU-second of a 51 s visit.
 */
const phoneIds = new Map<string, number>();
const phoneNames: string[] = [];
const indelCost: number[] = [];
const subCosts: number[][] = [];
function phoneId(p: string): number {
  let id = phoneIds.get(p);
  if (id === undefined) {
    id = phoneNames.length;
    phoneIds.set(p, id);
    phoneNames.push(p);
    indelCost.push(VOWELS.has(p) ? 0.6 : 1);
  }
  return id;
}
const toIds = (phones: string[]) => Int32Array.from(phones, phoneId);
const termIds = new WeakMap<SoundTerm, Int32Array>();
function idsOf(t: SoundTerm): Int32Array {
  let ids = termIds.get(t);
  if (!ids) termIds.set(t, (ids = toIds(t.phones)));
  return ids;
}

/**
 * Weighted phone edit distance over the term's length: 0 is identical, 1 is nothing in common. Infinity once
 * every path through a row already costs more than `ceiling` (costs only grow down the table), so a term that
 * cannot be close enough is given up early; below the ceiling the figure is the full computation's.
 */
function idDistance(heard: Int32Array, term: Int32Array, ceiling = Infinity): number {
  const n = heard.length;
  const m = term.length;
  const norm = Math.max(m, 1);
  let prev = new Float64Array(m + 1);
  let cur = new Float64Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    const a = heard[i - 1]!;
    const indelA = indelCost[a]!;
    const costs = (subCosts[a] ??= []);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const b = term[j - 1]!;
      const sub = (costs[b] ??= subCost(phoneNames[a]!, phoneNames[b]!));
      const v = Math.min(prev[j]! + indelA, cur[j - 1]! + indelCost[b]!, prev[j - 1]! + sub);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin / norm > ceiling) return Infinity;
    [prev, cur] = [cur, prev];
  }
  return prev[m]! / norm;
}

export function phoneDistance(heard: string[], term: string[]): number {
  return idDistance(toIds(heard), toIds(term));
}

function buildTerms(): SoundTerm[] {
  const out: SoundTerm[] = [];
  const add = (id: string, term: string, kind: SoundTerm['kind']) => {
    const phones = phonesOf(tokenize(term));
    // Short terms sound like too many ordinary words to be matched by sound.
    if (phones && phones.length >= 5) out.push({ term, id, kind, phones });
  };
  for (const [ing, ...aliases] of DRUG_CONCEPTS) for (const t of [ing, ...aliases]) add(ing, t, 'drug');
  for (const [code, ...terms] of ICD10_CONCEPTS) for (const t of terms) add(code, t, 'condition');
  return out;
}
let allTerms: SoundTerm[] | undefined;
export function codeSetTerms(): SoundTerm[] {
  return (allTerms ??= buildTerms());
}

/** The terms a session's context makes likely: its EMR medications and problems, context orders and diagnoses. */
export function contextTerms(req: Pick<NoteRequest, 'emrContext' | 'contextDiagnoses' | 'contextMedicationOrders'>): SoundTerm[] {
  const drugs = new Set<string>();
  const codes = new Set<string>();
  const drugNames = [...(req.emrContext?.medications ?? []).map((m) => m.name), ...(req.contextMedicationOrders ?? []).map((o) => o.drug_name)];
  for (const name of drugNames) for (const m of drugMatcher.match(tokenize(name))) drugs.add(m.id);
  for (const p of req.emrContext?.problems ?? []) {
    if (p.code) codes.add(p.code.replace('.', '').slice(0, 3));
    for (const m of conditionMatcher.match(tokenize(p.name))) codes.add(m.id.replace('.', '').slice(0, 3));
  }
  for (const d of req.contextDiagnoses ?? []) for (const c of d.codes) if (c.type === 'ICD10') codes.add(c.code.replace('.', '').slice(0, 3));
  if (!drugs.size && !codes.size) return [];
  return codeSetTerms().filter((t) => (t.kind === 'drug' ? drugs.has(t.id) : codes.has(t.id.replace('.', '').slice(0, 3))));
}

// Set on hand-made mishearings (soundalike.test.ts): context terms tolerate more, the open code set little.
export const CONTEXT_DISTANCE = 0.3;
export const OPEN_DISTANCE = 0.15;

/** The term a span of recognised words sounds like, if any is close enough. */
export function soundMatch(words: string[], context: SoundTerm[], open: boolean, contextLimit = CONTEXT_DISTANCE): SoundTerm | undefined {
  const heardPhones = phonesOf(words.map((w) => w.toLowerCase()));
  if (!heardPhones || heardPhones.length < 4) return undefined;
  const heard = toIds(heardPhones);
  let best: { t: SoundTerm; d: number } | undefined;
  const consider = (list: SoundTerm[], limit: number) => {
    for (const t of list) {
      if (Math.abs(t.phones.length - heard.length) > t.phones.length * limit + 1) continue;
      // A wrong diagnosis costs more than a missed one: condition terms must sound closer than drug names.
      const kindLimit = t.kind === 'condition' ? limit * 0.65 : limit;
      const d = idDistance(heard, idsOf(t), Math.min(kindLimit, best?.d ?? Infinity));
      if (d <= kindLimit && (!best || d < best.d)) best = { t, d };
    }
  };
  consider(context, contextLimit);
  if (!best && open && heard.length >= 7) consider(codeSetTerms(), OPEN_DISTANCE);
  return best?.t;
}
