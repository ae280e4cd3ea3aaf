import { normaliseForMatching } from './normalise-for-matching';
import type { EvidenceEntry, Fact, FactResult } from './types';

type Said = EvidenceEntry['facts'][number];

// Units a scribe adds to a number said bare ("120/80" → "120/80 mmHg", "45" → "45-year-old"); any other unit must be said.
const IMPLIED_UNITS = new Set(['', 'mmhg', 'bpm', '%', 'degrees', 'breaths per minute', 'year-old', 'lb', 'kg']);
const sameNumber = (f: Fact, g: Said) =>
  (g.kind === 'dose' || g.kind === 'measurement') && g.value === f.value && (g.unit === f.unit || !f.unit || (!g.unit && (IMPLIED_UNITS.has(f.unit ?? '') || !!f.drug)));
// A generic word in the note ("imaging", "labs") is supported by any test of its class said in the visit.
const CLASS: Record<string, Set<string>> = {
  imaging: new Set(['x-ray', 'mri', 'ct', 'ultrasound', 'echocardiogram', 'mammogram']),
  labs: new Set(['a1c', 'bmp', 'cmp', 'cbc', 'lipid panel', 'tsh', 'urinalysis', 'psa', 'vitamin d level', 'creatinine', 'culture']),
};

// Categories whose fifth character is the body site (M25.56 knee, M25.53 wrist; M79.6 limb; M54.5 low back):
// there the site must match too. Elsewhere the category is enough ("diabetes" E11.9 for "type 2 diabetes with
// hyperglycemia" E11.65), and laterality is never compared.
const SITE_CODED = /^(?:M25|M54|M79|M6\d|M7\d)/;
const sameSite = (f: Fact, g: Fact) => !SITE_CODED.test(f.key) || !f.code || !g.code || f.code.length < 5 || g.code.length < 5 || f.code.slice(0, 5) === g.code.slice(0, 5);

/** Whether a fact said in an entry is the same fact as the note's (polarity is judged after). */
function same(f: Fact, g: Said): boolean {
  switch (f.kind) {
    case 'drug':
      return (g.kind === 'drug' && g.key === f.key) || (g.kind === 'allergy' && g.key === `allergy:${f.key}`);
    case 'dose':
    case 'measurement':
      return sameNumber(f, g);
    case 'problem':
    case 'negation':
      return (g.kind === 'problem' || g.kind === 'negation') && g.key === f.key && sameSite(f, g);
    case 'test':
      return g.kind === 'test' && (g.key === f.key || !!CLASS[f.key]?.has(g.key));
    default:
      return g.kind === f.kind && g.key === f.key;
  }
}

/**
 * Whether the transcript or the context states a note fact, and where. A dose said with a drug needs the
 * drug in the same entry or the one next to it; a problem needs the polarity the note gives it (the note's
 * "denies chest pain" against the visit's "yes, chest pain" is a negation flip), and is not supported by a
 * family member's condition or by the reaction of an allergy. An agreement claim needs the patient agreeing.
 * Evidence lists the entries that state it, narrowed to the ones the engine cited when any of them does.
 */
export function supportFact(fact: Fact, entries: EvidenceEntry[], claimed: ReadonlySet<string>): FactResult {
  // The cited entries when they state it, else those beside a cited one, else wherever it was said.
  const cites = entries.filter((e) => claimed.has(e.id) && e.index >= 0).map((e) => e.index);
  const narrow = (ids: string[]) => {
    const cited = ids.filter((id) => claimed.has(id));
    const near = ids.filter((id) => cites.some((c) => Math.abs((entries.find((e) => e.id === id)?.index ?? -99) - c) <= 2));
    return [...new Set(cited.length ? cited : near.length ? near : ids)];
  };
  if (fact.kind === 'agreement') {
    const ids = entries.filter((e) => e.agrees).map((e) => e.id);
    return ids.length ? { fact, supported: true, evidence: narrow(ids) } : { fact, supported: false, reason: 'agreement-not-said', evidence: [] };
  }
  const cands = entries.flatMap((e) => e.facts.filter((g) => same(fact, g)).map((g) => ({ e, g })));
  if (!cands.length) {
    // A problem the lexicon reads in the note but not in the visit's form of it ("smokes" / "I smoke"):
    // supported when an entry holds all its words, stemmed. Polarity cannot be judged then, so a denial,
    // which needs a "no" the visit said, never rests on this.
    const words = fact.kind === 'problem' ? normaliseForMatching(fact.text).split(' ') : [];
    const holding = words.length ? entries.filter((e) => words.every((w) => e.tokens.has(w))).map((e) => e.id) : [];
    if (holding.length) return { fact, supported: true, evidence: narrow(holding) };
    return { fact, supported: false, reason: 'not-in-transcript', evidence: [] };
  }
  if (fact.kind === 'dose' && fact.drug) {
    const near = (e: EvidenceEntry) =>
      entries.some((x) => (x === e || (e.index >= 0 && x.index >= 0 && Math.abs(x.index - e.index) <= 1)) && x.facts.some((g) => g.kind === 'drug' && g.key === fact.drug));
    // A number the visit already tied to a drug counts only for that drug; an untied one, for a drug beside it.
    const bound = cands.filter((c) => (c.g.drug ? c.g.drug === fact.drug : near(c.e)));
    if (!bound.length) return { fact, supported: false, reason: 'dose-not-with-drug', evidence: [] };
    return { fact, supported: true, evidence: narrow(bound.map((c) => c.e.id)) };
  }
  if (fact.kind === 'problem' || fact.kind === 'negation') {
    // Named to be looked for, on either side, it needs only to have been named.
    const ok = cands.filter(({ g }) => (fact.hedged || g.hedged || (fact.kind === 'problem' ? g.polarity.pos : g.polarity.neg)) && (!g.family || fact.family) && (!g.reaction || fact.reaction));
    if (ok.length) return { fact, supported: true, evidence: narrow(ok.map((c) => c.e.id)) };
    const own = cands.filter(({ g }) => !g.family || fact.family);
    const reason = own.length && own.every(({ g }) => g.reaction && !fact.reaction) ? 'allergy-reaction-as-finding' : !own.length ? 'family-history-as-patient' : 'negation-flip';
    return { fact, supported: false, reason, evidence: [] };
  }
  return { fact, supported: true, evidence: narrow(cands.map((c) => c.e.id)) };
}
