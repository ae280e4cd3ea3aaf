import { stemmer } from 'stemmer';
import { normaliseForMatching } from './normalise-for-matching';
import type { EvidenceEntry } from './types';

// Function words and the note's own voice ("the patient reports", "we will"), which any entry would match.
const STOP = new Set(
  (
    'a an the and or but so of to in on at for with from by as is are was were be been being has have had do does did not no it its this that ' +
    'these those there here he she they him her his their them i we us our me my you your will would can could should may might also ' +
    'patient patients reports reported endorses denies states notes today currently which who what when how any some all about into than then ' +
    'very well just still again further please mr mrs ms dr'
  )
    .split(' ')
    .map((w) => (w.length > 3 ? stemmer(w) : w)),
);
const THRESHOLD = 0.5;

/**
 * The entries a sentence's words came from when no checkable fact ties it to one: the cited entries if
 * they hold at least half of its content words, else the best single entry or pair of consecutive entries
 * (a question and its answer) that does. Empty when nothing does.
 */
export function overlapEvidence(sentence: string, entries: EvidenceEntry[], claimed: ReadonlySet<string>): string[] {
  const content = [...new Set(normaliseForMatching(sentence).split(' ').filter((t) => t && !STOP.has(t) && !/^\d+$/.test(t)))];
  if (!content.length) return [];
  const need = Math.max(1, Math.ceil(content.length * THRESHOLD));
  const score = (group: EvidenceEntry[]) => content.filter((t) => group.some((e) => e.tokens.has(t))).length;
  const cited = entries.filter((e) => claimed.has(e.id));
  if (cited.length && score(cited) >= need) return cited.map((e) => e.id);
  let best: EvidenceEntry[] = [];
  let bestScore = 0;
  for (const e of entries) {
    const s = score([e]);
    if (s > bestScore) { best = [e]; bestScore = s; }
  }
  // A question and its answer together, only when the pair holds more than any single entry.
  for (let i = 0; i + 1 < entries.length && bestScore < content.length; i++) {
    if (entries[i + 1].index !== entries[i].index + 1) continue;
    const s = score([entries[i], entries[i + 1]]);
    if (s > bestScore) { best = [entries[i], entries[i + 1]]; bestScore = s; }
  }
  return bestScore >= need ? best.map((e) => e.id) : [];
}
