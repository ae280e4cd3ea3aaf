/**
 * Regenerates server/engines/notes/embedded/pronunciations.json: CMU phones for every word of the drug and
 * condition terms, so recognised spans can be matched to the code sets by sound. Words the recogniser's
 * dictionary (server/engines/speech/model/clinical.dict) has take its pronunciation, so both sides of a
 * comparison come from the same source; the rest (brand names, rare terms) come from the project's G2P
 * (espeak-ng letter-to-sound rules mapped to CMU phones). Usage: node --import tsx scripts/notes/build-pronunciations.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ICD10_CONCEPTS } from '../../server/codesets/builtin/concepts';
import { DRUG_CONCEPTS } from '../../server/codesets/builtin/drugs';
import { espeakPronounce } from '../../server/engines/speech/lm/g2p';
import { tokenize } from '../../server/engines/notes/embedded/lexicon';

const root = path.resolve(import.meta.dirname, '../..');
const dict = new Map<string, string>();
for (const line of readFileSync(path.join(root, 'server/engines/speech/model/clinical.dict'), 'utf8').split('\n')) {
  const [w, ...ph] = line.trim().split(/\s+/);
  if (w && ph.length && !/\(\d+\)$/.test(w) && !dict.has(w)) dict.set(w, ph.join(' '));
}
const words = new Set<string>();
for (const [, ...terms] of ICD10_CONCEPTS) for (const t of terms) for (const w of tokenize(t)) words.add(w);
for (const concept of DRUG_CONCEPTS) for (const t of concept) for (const w of tokenize(t)) words.add(w);
const out = new Map<string, string>();
const missing = [...words].filter((w) => /^[a-z']+$/.test(w) && !dict.has(w));
const g2p = espeakPronounce(missing);
for (const w of [...words].sort()) {
  const p = dict.get(w) ?? g2p.get(w)?.join(' ');
  if (p) out.set(w, p);
}
// One JSON object: data, not code, read by soundalike.ts.
writeFileSync(path.join(root, 'server/engines/notes/embedded/pronunciations.json'), JSON.stringify(Object.fromEntries(out)) + '\n');
console.log(`${out.size} words (${missing.length} from G2P)`);
