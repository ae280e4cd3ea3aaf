import type { MedicationOrder } from '../types';
import type { CodeIndex } from '@/server/codesets/index';
import { drugMatcher, tokenize } from './lexicon';
import { FREQUENCY_PATTERNS, ORIGIN, RELATION, ROUTE_PATTERNS, STATUS, TIMING_PATTERNS, UNIT_CODES } from './vocab';
import { wordsToDigits } from './text';

export interface DrugMention { ingredient: string; spoken: string; index: number }

/** Drug names in a sentence (aliases such as brand names resolve to the RxNorm ingredient). */
export function findDrugs(text: string): DrugMention[] {
  const tokens = tokenize(text);
  return drugMatcher.match(tokens).map((m) => ({ ingredient: m.id, spoken: tokens.slice(m.start, m.end).join(' '), index: m.start }));
}

// "avoid penicillin", "stay away from the ibuprofen": the drug named just after is one not to take.
const AVOID = /\b(?:avoid(?:s|ed|ing)?|stay(?:ing)? away from|steer(?:ing)? clear of)\s+((?:[a-z-]+\s*){1,3})/gi;
const NOT_AVOID = /\b(?:not|don't|do not|no need to|needn't)\s+(?:have to\s+|need to\s+)?$/i;

/** The drugs a sentence says to avoid; never one a clinician says need not be avoided. */
export function avoidedDrugs(text: string): DrugMention[] {
  const out: DrugMention[] = [];
  for (const m of text.matchAll(AVOID)) if (!NOT_AVOID.test(text.slice(0, m.index))) out.push(...findDrugs(m[1]!));
  return out;
}

const UNIT_RE = new RegExp(`(\\d+(?:[.,]\\d+)?)\\s*(${Object.keys(UNIT_CODES).sort((a, b) => b.length - a.length).join('|')})\\b`, 'gi');

/**
 * The recogniser writes "micro grams" and "milli grams" as two words (browser trial of 28 Nov: "fluticasone two
 * hundred fifty micro grams" lost its 250 mcg); a dose is read from the one unit word.
 */
export function joinUnitWords(text: string): string {
  return text.replace(/\b(micro|milli)\s+(grams?|liters?|litres?|equivalents?)\b/gi, (_m, pre: string, unit: string) => `${pre}${unit.replace(/litre/i, 'liter')}`);
}

// A number whose first words were unsure or are left as words ("[unclear] hundred fifty micro grams" for "two
// hundred fifty"): the digits after them are only its tail, never the dose.
const CUT_NUMBER = /\b(?:hundred|thousand|point|UNCLEARSPAN)\s*$/i;
// A strength said with the count taken per dose: "250 micrograms, 2 puffs", "500 mg 2 tablets".
const STRENGTH = new Set(['MG', 'MCG', 'G']);
const COUNT = new Set(['PUFF', 'TAB', 'CAP', 'DROP', 'SPRAY', 'PATCH']);

/** The doses said in a stretch of text, each with where it starts, leaving out numbers whose start was not heard. */
function dosesIn(text: string): RegExpExecArray[] {
  return [...text.matchAll(UNIT_RE)].filter((m) => !CUT_NUMBER.test(text.slice(0, m.index)));
}

/**
 * The dose of the order: the first one said. A strength followed by the count per dose keeps both words
 * ("250 micrograms 2 puffs") with the strength coded, and the count as the instruction to take.
 */
function orderDose(after: string): { dose: readonly [string, string, string]; count?: string } | undefined {
  const [first, second] = dosesIn(after);
  if (!first) return undefined;
  const gap = second ? after.slice(first.index + first[0].length, second.index) : '';
  const unit = (m: RegExpExecArray) => UNIT_CODES[m[2].toLowerCase()];
  if (second && STRENGTH.has(unit(first)) && COUNT.has(unit(second)) && /^[\s,]*(?:of\s+it\s*)?$/i.test(gap))
    return { dose: [after.slice(first.index, second.index + second[0].length), first[1], first[2]], count: second[0] };
  return { dose: [first[0], first[1], first[2]] };
}

const VERB_STATUS: Array<[RegExp, MedicationOrder['status']]> = [
  [/\b(stop|discontinue|discontinued|come off|get off|stopping|hold off on taking|no longer take)\b/i, STATUS.DISCONTINUED],
  [/\b(refill|refills|refilled|renew)\b/i, STATUS.REFILLED],
  [/\b(increase|decrease|reduce|lower|raise|bump|change|switch|adjust|titrate|double)\b/i, STATUS.CHANGED],
  // "keep taking it", "stay on the atorvastatin": continued like "continue" ("keep the albuterol": KEEP_DRUG).
  [/\b(continue|continuing|keep (?:taking|using|on|(?:you|him|her|them) on)|stay(?:ing)? on|remain(?:ing)? on)\b/i, STATUS.CONTINUED],
  // "restart" a drug the patient stopped or ran out of is a new order of it: nothing is being taken to continue.
  [/\b(prescribe|prescribing|start|starting|restart|restarting|resume|resuming|initiate|put (you|him|her) on|give (you|him|her)|order|recommend|try|add|begin|send in|call in)\b/i, STATUS.NEW],
];

const UNIT_ALT = Object.keys(UNIT_CODES).sort((a, b) => b.length - a.length).join('|');
// "atorvastatin 20 milligrams a night" (heard for "at night"), "once a night": at bedtime. Only right after a dose or
// "once": elsewhere "a night" is no frequency ("had a night of coughing").
const A_NIGHT: [RegExp, 'AT_BEDTIME'] = [new RegExp(`(?:\\bonce a night\\b|(?<=\\d\\s*(?:${UNIT_ALT})\\s+)a night\\b)`, 'i'), 'AT_BEDTIME'];

/**
 * The frequency said first; among patterns matching at the same place, the list's order decides. "As needed" gives way to
 * an interval said with it ("as needed every 8 hours" is every 8 hours, as needed): as_needed is a field of its own, and
 * the interval is what bounds the day's doses.
 */
export function parseFrequency(text: string): { raw: string | null; code: string | null } {
  let best: { raw: string; code: string; at: number } | undefined;
  let interval: typeof best;
  for (const [re, code] of [...FREQUENCY_PATTERNS, A_NIGHT]) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.at)) best = { raw: m[0], code, at: m.index };
    if (m && code !== 'AS_NEEDED' && (!interval || m.index < interval.at)) interval = { raw: m[0], code, at: m.index };
  }
  if (best?.code === 'AS_NEEDED' && interval && interval.at - best.at <= best.raw.length + 30) best = interval;
  return best ? { raw: best.raw, code: best.code } : { raw: null, code: null };
}

export function parseTiming(text: string): string | null {
  for (const [re, code] of [...TIMING_PATTERNS, A_NIGHT]) if (re.test(text)) return code;
  return null;
}

const CAP = /\b(?:no more than|not more than|at most|up to|a maximum of|maximum of|max of)\s+(\d[\d,]*(?:\.\d+)?)\s+(tablets?|pills?|capsules?|doses?|times|milligrams|mg|grams?)\s+(?:a|per|in a|in one|each)\s+day\b/i;

/** The sentence with its numbers as digits, where the drug is named, and the words after and just before it. */
export function sigSpan(sentence: string, drug: DrugMention): { text: string; at: number; after: string; before: string } {
  const text = wordsToDigits(joinUnitWords(sentence.replace(/(\d),(\d{3})/g, '$1$2')));
  const lower = text.toLowerCase();
  const at = Math.max(0, lower.indexOf(drug.spoken.split(' ')[0]));
  // The sig usually follows the drug name; a dose said just before ("500 mg of metformin") also counts.
  // The sig of this drug ends where the next drug is named ("lisinopril 10 mg daily and metformin 500 mg twice a day").
  const nextDrug = findDrugs(text.slice(at + drug.spoken.length)).at(0);
  const end = nextDrug ? at + drug.spoken.length + Math.max(1, text.slice(at + drug.spoken.length).toLowerCase().search(new RegExp(`\\b${nextDrug.spoken.split(' ')[0]}`))) : at + 140;
  return { text, at, after: text.slice(at, Math.min(end, at + 140)), before: text.slice(Math.max(0, at - 30), at) };
}

/** A dose said of the drug whose number was not heard whole ("[unclear] hundred fifty micro grams"): nothing codes it. */
export function cutDose(sentence: string, drug: DrugMention): boolean {
  const { after } = sigSpan(sentence, drug);
  return [...after.matchAll(UNIT_RE)].some((m) => CUT_NUMBER.test(after.slice(0, m.index)));
}

/**
 * Builds an order from the words after (and just before) the drug name in one clinician sentence:
 * "metformin 500 mg twice a day with meals" → 500 MG, TWO_A_DAY, WITH_MEALS.
 */
export function parseOrder(sentence: string, drug: DrugMention, codes: CodeIndex): MedicationOrder {
  const { text, at, after, before } = sigSpan(sentence, drug);
  // A changed dose is said as "from 10 mg to 20 mg" or "10 to 20 mg": the order is the new dose.
  const change = doseChange(after);
  // A dose said before the drug is its own only when it runs into the name: "500 mg of metformin", "500 mg metformin".
  const doseBefore = BEFORE_RE.exec(before);
  const said = change ? undefined : orderDose(after);
  const dose = change
    ? ([`${change.to} ${change.unit}`, String(change.to), change.unit] as const)
    : said?.dose ?? (doseBefore && !CUT_NUMBER.test(before.slice(0, doseBefore.index)) ? ([doseBefore[0].trim(), doseBefore[1], doseBefore[2]] as const) : null);
  const freq = parseFrequency(after);
  const timing = parseTiming(after);
  let route: string | null = null;
  for (const [re, code] of ROUTE_PATTERNS) if (re.test(after)) { route = code; break; }
  const dur = /\bfor (?:the next |another )?(\d+|a|one)\s*(day|days|week|weeks|month|months)\b/i.exec(after);
  let duration: number | null = null;
  if (dur) {
    const n = /^\d+$/.test(dur[1]) ? Number(dur[1]) : 1;
    duration = n * (/week/i.test(dur[2]) ? 7 : /month/i.test(dur[2]) ? 30 : 1);
  }
  const refills = /(\d+)\s+refills?\b/i.exec(text);
  const status = orderStatus(text, at, drug);
  const concept = codes.rxByName(drug.ingredient);
  const unitWord = dose?.[2].toLowerCase();
  const told = /\b(with (?:food|meals|water)|on an empty stomach|avoid [a-z ]+|do not [a-z ]+|apply [a-z ]+|as needed for [a-z ]+)\b/i.exec(after)?.[0] ?? null;
  // "no more than 8 tablets a day": the most a day the clinician allows, kept so the review's dose check judges the order by it.
  const capSaid = CAP.exec(after);
  const cap = capSaid && !/unclearspan/i.test(capSaid[0]) ? `no more than ${capSaid[1]} ${capSaid[2]} a day` : null;
  // Instructions are copied words; one that runs into an unclear span is left for the clinician.
  const instr = [told && !/unclearspan/i.test(told) ? told : said?.count ?? null, cap].filter(Boolean).join('; ') || null;
  const prn = asNeeded(after);
  const previous = change && !wrongWay(text, change) ? { quantity: change.from, unit: UNIT_CODES[change.unit.toLowerCase()] ?? null, raw_value: `${change.from} ${change.unit}` } : null;
  return {
    drug_name: drug.ingredient,
    medication_code: concept ? { code: concept.rxcui, type: 'RXCUI' } : null,
    status,
    dosage: {
      quantity: dose ? Number(dose[1].replace(',', '.')) : null,
      unit: unitWord ? UNIT_CODES[unitWord] ?? null : null,
      raw_value: dose ? dose[0] : null,
    },
    frequency: { raw_value: freq.raw, structured_value: freq.code },
    medication_timing: timing,
    route,
    duration_in_days: duration,
    number_of_refills: refills ? Number(refills[1]) : null,
    instructions: instr,
    metadata: { origin: ORIGIN.AMBIENT, encounter_relation: RELATION.CURRENT },
    linked_diagnosis_codes: [],
    ...(prn ? { as_needed: true, as_needed_reason: prn.reason } : {}),
    ...(previous ? { previous_dosage: previous } : {}),
  };
}

const PRN = /\b(?:as needed|as-needed|when needed|if needed|prn|as necessary|when you need it|when you need to)\b/i;
const PRN_FOR = /\b(?:as needed|as-needed|when needed|if needed|prn|as necessary) for (?:the |your |her |his |any )?([a-z][a-z ]{2,30}?)(?=[,.;!?]|$|\s(?:and|but|or|up to|every|not|at|with|no more)\b)/i;
const FOR_PRN = /\bfor (?:the |your |her |his |any )?([a-z][a-z ]{2,25}?),? (?:as needed|as-needed|when needed|if needed|prn)\b/i;

/** "every 6 hours as needed for pain" → as needed, for "pain"; the reason is null when not said. */
export function asNeeded(text: string): { reason: string | null } | undefined {
  if (!PRN.test(text)) return undefined;
  const m = PRN_FOR.exec(text) ?? FOR_PRN.exec(text);
  const reason = m?.[1].trim().toLowerCase() ?? null;
  return { reason: reason && !/unclearspan/i.test(reason) && !/^(?:it|that|this|them|a|an|the)$/.test(reason) ? reason : null };
}

const UNIT_WORDS = Object.keys(UNIT_CODES).sort((a, b) => b.length - a.length).join('|');
const BEFORE_RE = new RegExp(`(\\d+(?:[.,]\\d+)?)\\s*(${UNIT_WORDS})\\s+(?:of\\s+)?(?:(?:the|your|her|his|their)\\s+)?$`, 'i');
const CHANGE_RE = new RegExp(`\\b(?:from\\s+)?(\\d+(?:\\.\\d+)?)\\s*(?:(${UNIT_WORDS})\\s+)?(?:up\\s+|down\\s+)?to\\s+(\\d+(?:\\.\\d+)?)\\s*(${UNIT_WORDS})\\b`, 'i');

/**
 * A change whose numbers go the other way from its verb: the recogniser heard "increase their lisinopril for ninety to
 * forty" for "from twenty" (a browser trial, 3 Dec). The new dose stands; the dose before it is no fact to record.
 */
export function wrongWay(text: string, change: { from: number; to: number }): boolean {
  const up = /\b(?:increas\w*|rais\w*|up|bump\w*|go(?:ing)? up|doubl\w*)\b/i.test(text);
  const down = /\b(?:decreas\w*|lower\w*|reduc\w*|cut\w*|go(?:ing)? down|halv\w*|taper\w*)\b/i.test(text);
  return up !== down && (up ? change.from >= change.to : change.from <= change.to);
}

/** The said dose before a change ("from 90 mg", "for 90 milligrams") when it is the wrong way round, for the note to leave out. */
export function wrongWayFrom(text: string): RegExp | undefined {
  const change = doseChange(text);
  if (!change || !wrongWay(text, change)) return undefined;
  return new RegExp(String.raw`\s*\b(?:from|for)?\s*${change.from}\s*(?:${UNIT_WORDS})?(?=\s+(?:up\s+|down\s+)?to\s+${change.to}\b)`, 'i');
}

/**
 * "increase the lisinopril from 10 mg to 20 mg daily" → from 10 to 20 MG-words. The order carries the new
 * dose; the note reads the change from both.
 */
export function doseChange(text: string): { from: number; to: number; unit: string } | undefined {
  const m = CHANGE_RE.exec(wordsToDigits(joinUnitWords(text)));
  if (!m || (m[2] && m[2].toLowerCase() !== m[4].toLowerCase() && UNIT_CODES[m[2].toLowerCase()] !== UNIT_CODES[m[4].toLowerCase()])) return undefined;
  return { from: Number(m[1]), to: Number(m[3]), unit: m[4] };
}

/**
 * "keep the albuterol …": "keep" continues a drug only when the drug is what is kept; "keep your blood pressure down
 * with lisinopril" starts it.
 */
export const KEEP_DRUG = /\bkeep (?:(?:the|your|his|her|their) )?$/i;

// Where one order's clause ends: a sentence or clause break, or "and" before a new verb.
const CLAUSE_BREAK = /[.;,]\s|\s(?:and|then|but|also)\s/gi;

/**
 * The order's status from its own clause: "increase the lisinopril to 20 mg, continue metformin" is a change
 * for lisinopril and a continuation for metformin. The verb nearest before the drug wins; else one just after.
 */
function orderStatus(text: string, at: number, drug: DrugMention): MedicationOrder['status'] {
  const pre = text.slice(Math.max(0, at - 80), at);
  const breaks = [...pre.matchAll(CLAUSE_BREAK)];
  const lastBreak = breaks.length ? breaks.at(-1)!.index! + breaks.at(-1)![0].length : 0;
  const own = pre.slice(lastBreak);
  let best: { at: number; status: MedicationOrder['status'] } | undefined;
  const keep = KEEP_DRUG.exec(own);
  if (keep) best = { at: keep.index, status: STATUS.CONTINUED };
  for (const [re, st] of VERB_STATUS) {
    const all = [...own.matchAll(new RegExp(re.source, 'gi'))];
    const last = all.at(-1);
    if (last && (!best || last.index! > best.at)) best = { at: last.index!, status: st };
  }
  if (best) return best.status;
  const post = text.slice(at + drug.spoken.length, at + drug.spoken.length + 40).split(CLAUSE_BREAK)[0];
  for (const [re, st] of VERB_STATUS) if (re.test(post)) return st;
  // No verb in its own clause: the sentence's verb, as before ("we'll go ahead and start you on … metformin").
  const wide = text.slice(Math.max(0, at - 80), at + 40);
  for (const [re, st] of VERB_STATUS) if (re.test(wide)) return st;
  return STATUS.NEW;
}

/** An order is complete when a clinician could sign it: drug, dose and frequency are all stated. */
export function isCompleteOrder(o: MedicationOrder): boolean {
  if (o.status === STATUS.DISCONTINUED || o.status === STATUS.CONTINUED) return !!o.medication_code;
  return !!o.medication_code && o.dosage.quantity !== null && !!o.dosage.unit && !!o.frequency.structured_value;
}
