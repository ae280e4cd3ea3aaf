import { drugMatcher } from '../embedded/lexicon';
import { matchTokens } from './match-tokens';

// Multi-word units first; each maps to the one name both sides are compared by.
const UNIT_WORDS: Array<[words: string[], unit: string]> = [
  [['breaths', 'per', 'minute'], 'breaths per minute'],
  [['year', 'old'], 'year-old'],
  ...(
    [
      ['mg', 'mg'], ['mcg', 'mcg'], ['g', 'g'], ['ml', 'ml'], ['kg', 'kg'], ['iu', 'iu'], ['meq', 'meq'], ['mmhg', 'mmhg'], ['bpm', 'bpm'],
      ['lb', 'lb'], ['degrees', 'degrees'], ['%', '%'], ['unit', 'unit'], ['units', 'unit'], ['tablet', 'tablet'], ['tablets', 'tablet'],
      ['tab', 'tablet'], ['tabs', 'tablet'], ['pill', 'tablet'], ['pills', 'tablet'], ['capsule', 'capsule'], ['capsules', 'capsule'],
      ['puff', 'puff'], ['puffs', 'puff'], ['drop', 'drop'], ['drops', 'drop'], ['spray', 'spray'], ['sprays', 'spray'], ['patch', 'patch'],
      ['day', 'day'], ['days', 'day'], ['week', 'week'], ['weeks', 'week'], ['month', 'month'], ['months', 'month'], ['year', 'year'],
      ['years', 'year'], ['hour', 'hour'], ['hours', 'hour'], ['minute', 'minute'], ['minutes', 'minute'], ['times', 'times'],
    ] as Array<[string, string]>
  ).map(([w, u]): [string[], string] => [[w], u]),
];
export const DOSE_UNITS = new Set(['mg', 'mcg', 'g', 'ml', 'iu', 'meq', 'unit', 'tablet', 'capsule', 'puff', 'drop', 'spray', 'patch']);
const NUMBER = /^\d+(?:\.\d+)?(?:\/\d+(?:\.\d+)?)?$/;

export interface Measurement { value: string; unit: string; said: string; drug?: string }

/**
 * Numbers in digits-and-units text, each with the unit said after it ("" when none), and for a dose the
 * drug it belongs to: the nearest drug named before it, or the one after "of" ("500 mg of metformin").
 */
export function findMeasurements(text: string): Measurement[] {
  const tokens = matchTokens(text);
  const drugs = drugMatcher.match(tokens);
  const out: Measurement[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!NUMBER.test(tokens[i])) continue;
    const hit = UNIT_WORDS.find(([w]) => w.every((x, k) => tokens[i + 1 + k] === x));
    const unit = hit?.[1] ?? '';
    const end = i + 1 + (hit?.[0].length ?? 0);
    let drug: string | undefined;
    if (DOSE_UNITS.has(unit)) {
      drug = drugs.filter((d) => d.end <= i).at(-1)?.id;
      const after = drugs.find((d) => d.start >= end && d.start <= end + 2);
      if (after && (tokens[end] === 'of' || !drug)) drug = after.id;
    }
    out.push({ value: tokens[i], unit, said: tokens.slice(i, end).join(' '), ...(drug ? { drug } : {}) });
    i = end - 1;
  }
  return out;
}
