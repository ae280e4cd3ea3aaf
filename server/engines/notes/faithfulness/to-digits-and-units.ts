import { wordsToDigits } from '../embedded/text';

/** Spoken or written unit → the abbreviation both sides are compared in (longest names first). */
const UNITS: Array<[RegExp, string]> = [
  [/\bmilli ?grams?\b|\bmgs?\b/g, 'mg'],
  [/\bmicro ?grams?\b|\bmcgs?\b|\bµg\b/g, 'mcg'],
  [/\bmilli ?liters?\b|\bmillilitres?\b|\bmls?\b|\bcc\b/g, 'ml'],
  [/\bkilo ?grams?\b|\bkgs?\b/g, 'kg'],
  [/\bgrams?\b/g, 'g'],
  [/\binternational units?\b/g, 'iu'],
  [/\bmillimeters? of mercury\b|\bmm ?hg\b/g, 'mmhg'],
  [/\bbeats (?:per|a) minute\b|\bbpm\b/g, 'bpm'],
  [/\bbreaths (?:per|a) minute\b/g, 'breaths per minute'],
  [/\bpounds?\b|\blbs?\b/g, 'lb'],
  [/\bdegrees? (?:fahrenheit|f)\b|°\s?f\b|\bdegrees?\b|°/g, 'degrees'],
  [/\s?%|\bper ?cent\b/g, ' %'],
  [/\bmilli ?equivalents?\b|\bmeqs?\b/g, 'meq'],
];

const NUMBER_WORD = /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)\b/;
const SPOKEN_ONE = /\b(?:one|a single) (?=(?:tablet|pill|capsule|puff|drop|patch|spray|unit|injection|shot)s?\b)/g;

/**
 * Lower case, spoken numbers as digits and units as abbreviations, so that "one twenty over eighty" reads
 * "120/80", "ten milligrams" reads "10 mg" and "in a month" reads "in 1 month" on both sides of a check.
 */
export function toDigitsAndUnits(text: string): string {
  let t = ` ${text.toLowerCase().replace(/[’‘]/g, "'")} `;
  t = t.replace(/(\d),(\d{3})\b/g, '$1$2');
  // wordsToDigits keeps a lone "one" as a word (it is usually a pronoun); before a unit it is a count.
  t = t.replace(SPOKEN_ONE, '1 ').replace(/\b(in|for|after|within|every|about|over) (?:a|one) (day|week|month|year|hour)\b/g, '$1 1 $2');
  // "see you next week" is a follow-up in 1 week, as the engine writes it.
  t = t.replace(/\bnext (week|month|year)\b/g, 'in 1 $1');
  // wordsToDigits walks every word; most sentences have no number word, and it is the checker's hot spot.
  if (NUMBER_WORD.test(t)) t = wordsToDigits(t);
  t = t
    .replace(/\b(\d+) point (\d+)\b/g, '$1.$2')
    .replace(/\b(\d+)\s*(?:over|\/)\s*(\d+)\b/g, '$1/$2')
    .replace(/\b(\d+) out of (\d+)\b/g, '$1/$2')
    .replace(/\b(\d+)\s*-?\s*years?[- ]old\b/g, '$1 year old');
  for (const [re, unit] of UNITS) t = t.replace(re, unit);
  // "500mg" → "500 mg": a number and its unit are separate tokens.
  t = t.replace(/\b(\d+(?:\.\d+)?)(mg|mcg|ml|kg|g|iu|lb|meq)\b/g, '$1 $2');
  return t.replace(/\s+/g, ' ').trim();
}
