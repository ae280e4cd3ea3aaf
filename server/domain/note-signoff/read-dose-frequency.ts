import type { MedicationOrder } from '@/lib/contracts/sessions';
import { FREQUENCY_TYPE_INFO, type FrequencyTypeCode } from '@/lib/info';

/** How often an order allows its dose, as far as the order itself says. */
export interface DoseFrequency {
  /** The most doses a day the order allows (4 for every 6 hours, 2/7 for twice a week); null when only a ceiling says. */
  perDay: number | null;
  /** The frequency in words for the review ("four times a day", "every 6 hours as needed, at most 4 g a day"). */
  words: string;
  asNeeded: boolean;
  /** A stated ceiling of the amount a day ("not to exceed 4 g a day"), in the order's own unit word, and in words. */
  maxAmount?: { quantity: number; unit: string; words: string };
}

const AS_NEEDED = /\b(as needed|as-needed|when needed|if needed|prn|as necessary)\b/i;
const NUMBER_WORDS: Record<string, string> = { one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', eight: '8', twelve: '12' };
const digits = (text: string) => text.toLowerCase().replace(/\b(one|two|three|four|five|six|eight|twelve)\b/g, (w) => NUMBER_WORDS[w]!);
// "every 4 hours", "q4h", "every 4 to 6 hours": the shortest interval is the most the order allows.
const INTERVAL = /\b(?:every|q)\s*(\d+(?:\.\d+)?)(?:\s*(?:-|to|or)\s*(\d+(?:\.\d+)?))?\s*(?:hours?|hrs?|h)\b/;
const TIMES_A_DAY: Array<[RegExp, number | null]> = [
  [/\b(\d+)\s*times?\s*(?:a|per|each|every)\s*day\b|\b(\d+)\s*times?\s*daily\b/, null],
  [/\b(?:qid|q\.i\.d\.)\b/, 4],
  [/\b(?:tid|t\.i\.d\.|thrice daily)\b/, 3],
  [/\b(?:twice\s*(?:a|per|each)?\s*(?:day|daily)|bid|b\.i\.d\.)\b/, 2],
  [/\b(?:once\s*(?:a|per|each)?\s*(?:day|daily)|daily|every day|qd|every morning|every evening|at bedtime|nightly)\b/, 1],
  [/\b(?:once\s*(?:a|per|each)\s*week|weekly|every week)\b/, 1 / 7],
  [/\b(?:twice\s*(?:a|per|each)\s*week)\b/, 2 / 7],
  [/\b(?:every other day)\b/, 1 / 2],
  [/\b(?:every\s*2\s*weeks|every other week|fortnightly)\b/, 1 / 14],
];
// A ceiling the order states: "not to exceed 4 g a day", "max 3000 mg/24 h", "no more than 4 doses in 24 hours",
// "maximum 8 tablets a day" (judged only when the dose gives a tablet's strength: check-dose-plausibility.ts).
const CEILING =
  /\b(?:max(?:imum)?|at most|not to exceed|not exceeding|do not exceed|no more than|up to|nte)\s*(?:of\s*)?(\d[\d,]*(?:\.\d+)?)\s*([a-zµμ]+)?\s*(?:\/|a|per|in|each|every)\s*(?:day|24\s*(?:hours?|hrs?|h))\b/;

/** Doses a day from the frequency's words, when its code does not give them ("q6h prn", "every 4 to 6 hours"). */
function fromWords(text: string): { perDay: number; words: string } | null {
  const interval = INTERVAL.exec(text);
  if (interval) {
    const hours = Math.min(Number(interval[1]), Number(interval[2] ?? interval[1]));
    if (hours > 0) return { perDay: 24 / hours, words: interval[2] ? `every ${interval[1]}-${interval[2]} hours` : `every ${interval[1]} hours` };
  }
  for (const [re, perDay] of TIMES_A_DAY) {
    const m = re.exec(text);
    if (!m) continue;
    const n = perDay ?? Number(m[1] ?? m[2]);
    if (n > 0) return { perDay: n, words: m[0] };
  }
  return null;
}

/**
 * How many doses a day an order allows, from its coded frequency, else from its frequency's words, and capped by
 * a ceiling stated in them or in its instructions ("no more than 4 doses a day", "not to exceed 4 g a day"). An
 * as-needed order is judged by the most it allows (every 6 hours as needed: 4 doses). A frequency that is absent,
 * unreadable, has no fixed schedule (as needed with no interval, once, continuous, monthly) gives null: the
 * frequency is then not judged, never guessed.
 */
export function readDoseFrequency(order: MedicationOrder): DoseFrequency | null {
  const code = order.frequency?.structured_value ?? null;
  const said = digits(order.frequency?.raw_value ?? '');
  const asNeeded = order.as_needed === true || code === 'AS_NEEDED' || AS_NEEDED.test(said);
  const coded = code !== null && code !== 'AS_NEEDED';
  const info = coded && Object.hasOwn(FREQUENCY_TYPE_INFO, code) ? FREQUENCY_TYPE_INFO[code as FrequencyTypeCode] : undefined;
  // A code outside the list is unreadable: its words are not read in its place, as they may say something else.
  if (coded && !info) return null;
  const schedule = info ? (info.dosesPerDay ? { perDay: info.dosesPerDay, words: info.label.toLowerCase() } : null) : fromWords(said);
  let perDay = schedule?.perDay ?? null;
  let words = [schedule?.words ?? '', asNeeded ? 'as needed' : ''].filter(Boolean).join(' ');

  const ceiling = [said, digits(order.instructions ?? '')].map((t) => CEILING.exec(t)).find(Boolean);
  let maxAmount: DoseFrequency['maxAmount'];
  if (ceiling) {
    const n = Number(ceiling[1]!.replace(/,/g, ''));
    const unit = ceiling[2] ?? '';
    if (/^(doses?|times?)$/.test(unit) && n > 0 && !(perDay !== null && perDay <= n)) {
      perDay = n;
      words = schedule ? `${words}, at most ${n} doses a day` : [words, `up to ${n} times a day`].filter(Boolean).join(' ');
    } else if (unit && !/^(doses?|times?)$/.test(unit) && n > 0) maxAmount = { quantity: n, unit, words: `at most ${n} ${unit} a day` };
  }
  if (perDay === null && !maxAmount) return null;
  return { perDay, words, asNeeded, ...(maxAmount ? { maxAmount } : {}) };
}
