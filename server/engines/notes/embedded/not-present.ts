/** Condition mentions that say the condition is not present though no negation says so: a risk, or a possibility set aside. */
import { conditionMatcher, tokenize } from './lexicon';

// A condition named as a risk ("lower your risk of a stroke", "the chance of a blood clot", "to prevent a heart attack") is one
// the patient does not have: it is as absent as a denied one, so no problem, code or evidence is made of it.
const RISK_OF = /\b(?:risks? (?:of|for)|chances? of|odds of|likelihood of|prevent (?:a|an|any|another|future|further)|protect (?:you|him|her|them|your \w+) (?:from|against))\s+(?:(?:a|an|the|any|another|future|further|developing|having|getting)\s+){0,2}$/;
// A possibility the clinician names and then sets aside for another diagnosis in the same sentence ("it could be gout, but I
// think it's osteoarthritis") is not a diagnosis; the one the "but" leads to is.
const MAYBE_BEFORE = /\b(?:could|might|may) (?:be|have|represent)\s+(?:(?:a|an|the|some|your|just)\s+)?$|\b(?:possibly|maybe|perhaps)\s+(?:(?:a|an|the|some|your)\s+)?$/;
const SET_ASIDE_AFTER = /^(?:[\w'-]+\s+){0,4}?(?:but|however)\s+(?:(?:i|we)\s+(?:think|believe|suspect)\s+(?:that\s+)?(?:it's|it is|this is|you have|it)?|(?:it's|it is|this is|this looks like|it looks like)\s+(?:more\s+)?(?:likely\s+)?|more likely|most likely)\b/;
export function setAside(tokens: string[], start: number, end: number): boolean {
  if (!MAYBE_BEFORE.test(`${tokens.slice(Math.max(0, start - 4), start).join(' ')} `)) return false;
  const after = tokens.slice(end, end + 14).join(' ');
  if (!SET_ASIDE_AFTER.test(after)) return false;
  // The sentence must go on to name what it is instead.
  const rest = tokenize(after.replace(SET_ASIDE_AFTER, ''));
  return conditionMatcher.match(rest).length > 0;
}

/** Whether the words before a mention (its start) name it as a risk. */
export const namedAsRisk = (tokens: string[], start: number): boolean => RISK_OF.test(`${tokens.slice(Math.max(0, start - 6), start).join(' ')} `);
