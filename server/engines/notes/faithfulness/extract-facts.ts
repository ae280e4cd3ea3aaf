import { conditionMentions } from '../embedded/analyze';
import { drugMatcher, tokenize } from '../embedded/lexicon';
import { findAllergies } from './find-allergies';
import { findFrequencies } from './find-frequencies';
import { findMeasurements } from './find-measurements';
import { findTests } from './find-tests';
import { matchTokens } from './match-tokens';
import { toDigitsAndUnits } from './to-digits-and-units';
import type { Fact } from './types';

/** Fixed wording that claims the patient understood or agreed; only the patient saying so supports it. */
export const AGREEMENT_CLAIM =
  /\b(?:understands? and agrees?|agrees? (?:with|to) (?:the |this |our )?(?:recommended |proposed )?(?:medical )?(?:treatment )?plan|verbali[sz]ed (?:understanding|agreement)|is in agreement|expressed (?:understanding|agreement)|consents? to)\b/;

const PART = '(?:right |left )?(?:knee|hip|shoulder|back|neck|ankle|wrist|elbow|foot|feet|hand|leg|arm|chest|head|stomach|belly|toe|finger)';
const PAIN_SAID = new RegExp(`\\b(${PART})s? (?:(?:still|really|also|is|are|has been|have been|kind of|just) )?(?:hurts|hurt|hurting|aches|aching|sore)\\b`, 'g');

/**
 * The clauses a problem's negation reaches: the engine's negation rules read a window of words, so a run-on
 * "no fever or chills he gets headaches" is cut where a new subject starts; lists stay whole ("denies chest
 * pain, shortness of breath"). Spoken forms the concept lexicon lacks are added: "my knee hurts" also reads
 * "knee pain", "tired" reads "tiredness".
 */
function problemClauses(t: string): string[] {
  const said = t.replace(/\btired\b/g, 'tiredness');
  const pains = [...said.matchAll(PAIN_SAID)].map((m) => `${m[1]} pain`);
  // A subject after "if" or "when" is its case's, not a new clause: cut from its "if", "If the patient has any chest pain, go
  // to the emergency room" read as chest pain had, which the visit's warning sign does not support (a browser trial, 3 Dec).
  return [...said.split(/[;]|(?<!\b(?:[Ii]f|[Ww]hen|[Ww]henever|[Uu]nless|[Uu]ntil|[Ss]hould|[Ii]n case))\s+(?=(?:he|she|they|i|the patient) (?:has|have|had|is|was|gets|got|does|did|reports|thinks|feels|takes)\b)/), ...pains].filter((c) => c.trim());
}

/**
 * The checkable facts of one note sentence (or transcript sentence): numbers with their units, doses with
 * the drug they were said with, frequencies, drugs (RxNorm ingredients via the code set's drug lexicon),
 * problems and their negations (ICD-10-CM categories via the engine's concept lexicon and its negation and
 * family-history rules), allergies, tests, and agreement claims. Problems said in a sentence about an
 * allergy are marked as the reaction, not a current finding.
 */
// `speaker` is who said the text, for a transcript sentence: "I get migraines too" is the clinician's own when the clinician
// says it and the patient's when the patient does; a note sentence has no speaker of its own and is read as the patient's.
export function extractFacts(text: string, speaker: 'CLINICIAN' | 'PATIENT' = 'PATIENT'): Fact[] {
  const t = toDigitsAndUnits(text.replace(/\[unclear\]/gi, ' '));
  const facts: Fact[] = [];
  const reaction = /\ballerg/.test(t);
  const allergies = findAllergies(t);
  for (const a of allergies) facts.push({ kind: 'allergy', text: a.said, key: a.key });
  // An allergen is the allergy fact, not a drug the patient takes.
  const allergens = new Set(allergies.map((a) => a.key.slice('allergy:'.length)));
  for (const d of drugMatcher.match(matchTokens(t)))
    if (!allergens.has(d.id)) facts.push({ kind: 'drug', text: d.term, key: d.id });
  for (const m of findMeasurements(t)) {
    const dose = !!m.drug || ['mg', 'mcg', 'iu', 'unit', 'tablet', 'capsule', 'puff', 'meq'].includes(m.unit);
    facts.push({ kind: dose ? 'dose' : 'measurement', text: m.said, key: `${m.value} ${m.unit}`.trim(), value: m.value, unit: m.unit, ...(m.drug ? { drug: m.drug } : {}) });
  }
  for (const f of findFrequencies(t)) facts.push({ kind: 'frequency', text: f.said, key: f.code });
  const seen = new Set<string>();
  // A pressure said to be raised or treated ("your blood pressure is also higher", "lisinopril for your blood pressure")
  // implies hypertension, as the engine reads it: a diagnosis coded from it has that line as its evidence.
  const mentions = problemClauses(t).flatMap((c) => conditionMentions({ i: 0, turn: 0, tid: '', role: speaker, text: c, tokens: tokenize(c), question: false }, { measured: true }));
  for (const m0 of mentions) {
    // "I don't have quite as much shortness of breath" still has some: less is not none.
    const lessOf = /\b(?:not|don't|doesn't|didn't|isn't|wasn't|haven't|hasn't) (?:have |had |been )?(?:quite )?as (?:much|many|bad|often)(?: of)?$/.test(m0.sentence.tokens.slice(Math.max(0, m0.start - 7), m0.start).join(' '));
    const before = m0.sentence.tokens.slice(Math.max(0, m0.start - 6), m0.start).join(' ');
    const hedged = /\b(?:rule out|r\/o|look for|looking for|evaluate for|check for|screen for|screening for|concern for|worried about)\b/.test(before);
    const m = lessOf || hedged ? { ...m0, negated: false } : m0;
    // Z codes are statuses and encounters ("allergy to penicillin", "follow-up"), not problems; "allergies"
    // in an allergy statement ("no known drug allergies") is that statement, not allergic rhinitis.
    if (m.code.startsWith('Z') || (/allerg/.test(m.surface) && (allergies.length || /\b(?:drug|medication|known) allerg/.test(t)))) continue;
    const kind = m.negated ? 'negation' : 'problem';
    const key = m.code.slice(0, 3);
    if (seen.has(`${kind}${key}`)) continue;
    seen.add(`${kind}${key}`);
    // The allergy itself ("seasonal allergies") is not its reaction.
    const isReaction = reaction && !/allerg/.test(m.surface);
    facts.push({ kind, text: m.surface, key, code: m.code.replace('.', ''), ...(hedged ? { hedged: true } : {}), ...(m.family ? { family: true } : {}), ...(isReaction ? { reaction: true } : {}) });
  }
  for (const x of findTests(t)) if (!facts.some((f) => f.kind === 'test' && f.key === x.group)) facts.push({ kind: 'test', text: x.said, key: x.group });
  const agreed = AGREEMENT_CLAIM.exec(t);
  if (agreed) facts.push({ kind: 'agreement', text: agreed[0], key: 'agreement' });
  return facts;
}
