/**
 * Allergies and lab/imaging orders a scribe's reference note states, read with the engine's own tables (as
 * bench/clinical/facts.ts reads diagnoses with the engine's lexicon), and the same facts of a generated note:
 * allergies by substance (code, else name), lab and imaging orders by LOINC code (orders kept as text are
 * counted on their own: the reference is read with the same table, so they have nothing to match).
 */
import { defaultCodeIndex } from '../../server/codesets/index';
import { ORDERABLES } from '../../server/codesets/orderables';
import { codeSubstance } from '../../server/engines/notes/embedded/allergies';
import { PhraseMatcher, tokenize } from '../../server/engines/notes/embedded/lexicon';
import type { NoteResult } from '../../server/engines/notes/types';

const orderables = new PhraseMatcher(ORDERABLES.flatMap((o) => o.aliases.map((a) => [o.code, a] as [string, string])));
// A&P lines that order: "I have ordered a BMP", "We will obtain a chest x-ray", "Repeat A1c in 3 months".
const ORDER_CUE = /\b(order|ordered|ordering|obtain|obtained|check|checked|repeat|recheck|draw|get|schedule|scheduled|will|plan|recommend|recommended|request|requested|send|sent)\b/i;
const RESULT_CUE = /\b(revealed|showed|demonstrated|was (?:normal|abnormal|elevated|negative|positive|\d)|were (?:normal|abnormal|elevated)|reviewed|results?)\b/i;

const substanceKey = (name: string) => {
  const c = codeSubstance(name, defaultCodeIndex());
  return c ? `${c.type}:${c.code}` : `NAME:${name.trim().toLowerCase()}`;
};

export function referenceAllergies(note: string): Set<string> {
  const out = new Set<string>();
  const m = /\nALLERGIES\n+([\s\S]*?)(?:\n\n[A-Z][A-Z /&]+\n|$)/.exec(note);
  const lines = [...(m ? m[1].split('\n') : []), ...note.split('\n').filter((l) => /\ballergic to\b/i.test(l))];
  for (const line of lines) {
    if (/\b(no known|nkda|denies|seasonal)\b/i.test(line)) continue;
    const body = line.replace(/^.*\ballergic to\b/i, '').replace(/\b(?:causes?|which causes|with)\b.*$/i, '');
    for (const item of body.split(/,|\band\b|\./)) if (item.trim()) out.add(substanceKey(item.replace(/^[\s•-]+/, '')));
  }
  return out;
}

export function referenceOrders(note: string): Set<string> {
  const ap = /\n(ASSESSMENT|IMPRESSION|PLAN)/.exec(note);
  const out = new Set<string>();
  for (const line of (ap ? note.slice(ap.index) : note).split(/\n|(?<=\.)\s+/)) {
    if (!ORDER_CUE.test(line) || RESULT_CUE.test(line)) continue;
    for (const h of orderables.match(tokenize(line))) out.add(h.id);
  }
  return out;
}

export function noteAllergies(r: Pick<NoteResult, 'structured_data'>): Set<string> {
  return new Set(r.structured_data.allergies.values.map((a) => (a.substance_code ? `${a.substance_code.type}:${a.substance_code.code}` : `NAME:${a.substance}`)));
}

/** LOINC codes of the note's orders; an order kept as text has no counterpart the reference can be read into. */
export function noteOrders(r: Pick<NoteResult, 'structured_data'>): Set<string> {
  return new Set(r.structured_data.orders.service_orders.values.flatMap((o) => (o.code ? [o.code.code] : [])));
}
