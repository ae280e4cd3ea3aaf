import { stemmer } from 'stemmer';
import { drugMatcher } from '../embedded/lexicon';
import { matchTokens } from './match-tokens';

const NONE = /\b(?:no known (?:drug |medication )?allergies|nkda|nka|no (?:drug |medication )?allergies|not allergic to anything|(?:do not|does not|don't|doesn't) have any (?:drug |medication |known )?allergies)\b/;
const TO = /\b(?:allergic|allergy|allergies|allergic reaction) to ([a-z0-9 ,/-]+)/g;
const BEFORE = /\b([a-z-]+) allerg(?:y|ies)\b/g;
const NOT_SUBSTANCE = /^(?:any|anything|all|the|a|an|some|no|known|drug|drugs|medication|medications|food|seasonal|environmental|other|your|his|her|their|my|severe|mild|of|with|and|or)$/;

/**
 * Allergies a sentence states, as "allergy:<RxNorm ingredient>" for a drug the code set knows, else
 * "allergy:<stemmed first word>" ("shellfish", "latex"), or "allergy:none" for no known allergies.
 */
export function findAllergies(text: string): Array<{ key: string; said: string }> {
  const out: Array<{ key: string; said: string }> = [];
  const none = NONE.exec(text);
  if (none) out.push({ key: 'allergy:none', said: none[0] });
  const substance = (words: string, said: string) => {
    const tokens = matchTokens(words.split(/\b(?:which|that|it|and it|but|because|since|causes?|gives?|gave)\b/)[0]);
    const drugs = drugMatcher.match(tokens);
    if (drugs.length) for (const d of drugs) out.push({ key: `allergy:${d.id}`, said });
    else {
      const first = tokens.find((t) => !NOT_SUBSTANCE.test(t));
      if (first && tokens.indexOf(first) <= 1) out.push({ key: `allergy:${stemmer(first)}`, said });
    }
  };
  for (const m of text.matchAll(TO)) substance(m[1], m[0]);
  for (const m of text.matchAll(BEFORE)) if (!NOT_SUBSTANCE.test(m[1])) substance(m[1], m[0]);
  const seen = new Set<string>();
  return out.filter((a) => !seen.has(a.key) && !!seen.add(a.key));
}
