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

const UNIT_RE = new RegExp(`(\\d+(?:[.,]\\d+)?)\\s*(${Object.keys(UNIT_CODES).sort((a, b) => b.length - a.length).join('|')})\\b`, 'i');

const VERB_STATUS: Array<[RegExp, MedicationOrder['status']]> = [
  [/\b(stop|discontinue|discontinued|come off|get off|stopping|hold off on taking|no longer take)\b/i, STATUS.DISCONTINUED],
  [/\b(refill|refills|refilled|renew)\b/i, STATUS.REFILLED],
  [/\b(increase|decrease|reduce|lower|raise|bump|change|switch|adjust|titrate|double)\b/i, STATUS.CHANGED],
  [/\b(continue|keep taking|stay on|remain on|keep you on|continuing)\b/i, STATUS.CONTINUED],
  [/\b(prescribe|prescribing|start|starting|initiate|put (you|him|her) on|give (you|him|her)|order|recommend|try|add|begin|send in|call in)\b/i, STATUS.NEW],
];

/** The frequency said first; among patterns matching at the same place, the list's order decides. */
export function parseFrequency(text: string): { raw: string | null; code: string | null } {
  let best: { raw: string; code: string; at: number } | undefined;
  for (const [re, code] of FREQUENCY_PATTERNS) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.at)) best = { raw: m[0], code, at: m.index };
  }
  return best ? { raw: best.raw, code: best.code } : { raw: null, code: null };
}

export function parseTiming(text: string): string | null {
  for (const [re, code] of TIMING_PATTERNS) if (re.test(text)) return code;
  return null;
}

/**
 * Builds an order from the words after (and just before) the drug name in one clinician sentence:
 * "metformin 500 mg twice a day with meals" → 500 MG, TWO_A_DAY, WITH_MEALS.
 */
export function parseOrder(sentence: string, drug: DrugMention, codes: CodeIndex): MedicationOrder {
  const text = wordsToDigits(sentence.replace(/(\d),(\d{3})/g, '$1$2'));
  const lower = text.toLowerCase();
  const at = Math.max(0, lower.indexOf(drug.spoken.split(' ')[0]));
  // The sig usually follows the drug name; a dose said just before ("500 mg of metformin") also counts.
  // The sig of this drug ends where the next drug is named ("lisinopril 10 mg daily and metformin 500 mg twice a day").
  const nextDrug = findDrugs(text.slice(at + drug.spoken.length)).at(0);
  const end = nextDrug ? at + drug.spoken.length + Math.max(1, text.slice(at + drug.spoken.length).toLowerCase().search(new RegExp(`\\b${nextDrug.spoken.split(' ')[0]}`))) : at + 140;
  const after = text.slice(at, Math.min(end, at + 140));
  const before = text.slice(Math.max(0, at - 30), at);
  const dose = UNIT_RE.exec(after) ?? UNIT_RE.exec(before);
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
  let status: string = STATUS.NEW;
  const clause = text.slice(Math.max(0, at - 80), at + 40);
  for (const [re, s] of VERB_STATUS) if (re.test(clause)) { status = s; break; }
  const concept = codes.rxByName(drug.ingredient);
  const unitWord = dose?.[2].toLowerCase();
  const said = /\b(with (?:food|meals|water)|on an empty stomach|avoid [a-z ]+|do not [a-z ]+|apply [a-z ]+|as needed for [a-z ]+)\b/i.exec(after)?.[0] ?? null;
  // Instructions are copied words; one that runs into an unclear span is left for the clinician.
  const instr = said && !/unclearspan/i.test(said) ? said : null;
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
  };
}

/** An order is complete when a clinician could sign it: drug, dose and frequency are all stated. */
export function isCompleteOrder(o: MedicationOrder): boolean {
  if (o.status === STATUS.DISCONTINUED || o.status === STATUS.CONTINUED) return !!o.medication_code;
  return !!o.medication_code && o.dosage.quantity !== null && !!o.dosage.unit && !!o.frequency.structured_value;
}
