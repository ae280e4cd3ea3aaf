import { stemmer } from 'stemmer';
import { drugMatcher } from '../embedded/lexicon';
import { toDigitsAndUnits } from './to-digits-and-units';
import { matchTokens } from './match-tokens';

/**
 * The form a note sentence and a transcript entry are compared in: lower case, spoken numbers as digits,
 * units abbreviated, brand and spoken drug names as the RxNorm ingredient the code set gives
 * ("Zestril" → "lisinopril"), and words Porter-stemmed (as bench/notes/rouge.ts does) so "reports"
 * matches "reported". Tokens are separated by single spaces.
 */
export function normaliseForMatching(text: string): string {
  const tokens = matchTokens(toDigitsAndUnits(text));
  const out: string[] = [];
  const drugs = drugMatcher.match(tokens);
  let k = 0;
  for (let i = 0; i < tokens.length; ) {
    const d = drugs[k];
    if (d && d.start === i) {
      out.push(...matchTokens(d.id));
      i = d.end;
      k++;
      continue;
    }
    out.push(tokens[i]);
    i++;
  }
  return out.map((t) => (/^[a-z]{4,}$/.test(t) ? stemmer(t) : t)).join(' ');
}
