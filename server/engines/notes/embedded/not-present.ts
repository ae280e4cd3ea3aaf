/**
 * Condition mentions that say the condition is not present though no negation says so: a risk, a possibility set aside,
 * a condition taught about, resolved, not found by its test, or named for its vaccine.
 */
import { conditionMatcher, tokenize } from './lexicon';

// A condition named as a risk ("lower your risk of a stroke", "the chance of a blood clot", "to prevent a heart attack") is one
// the patient does not have: it is as absent as a denied one, so no problem, code or evidence is made of it.
const RISK_OF =
  /\b(?:risks? (?:of|for)|risk factors? (?:for|of)|chances? of|odds of|likelihood of|low (?:suspicion|concern|likelihood|probability) (?:for|of)|prevent (?:a|an|any|another|future|further)|protect (?:you|him|her|them|your \w+) (?:from|against)|keep (?:you|him|her|them) from|avoid (?:a|an|any|another|getting|developing|having)|exclude|excluding|vaccinated against|immuni[sz]ed against|immune to|in case (?:you|he|she|they) (?:get|gets|develop|develops|have|has)|should (?:you|he|she|they) (?:get|develop|have|start having)|no longer (?:have|has|had))\s+(?:(?:a|an|the|any|another|future|further|developing|having|getting)\s+){0,2}$/;
// A possibility the clinician names ("could be", "maybe", "either X or Y") and then sets aside for another diagnosis in the
// same sentence ("it could be gout, but I think it's osteoarthritis") is not a diagnosis; the one the "but" leads to is.
const MAYBE_BEFORE = /\b(?:(?:could|might|may) (?:be|have|represent)|possibly|maybe|perhaps|either)\b/;
const SET_ASIDE_AFTER = /^(?:[\w'-]+\s+){0,4}?(?:but|however)\s+(?:(?:i|we)\s+(?:think|believe|suspect)\s+(?:that\s+)?(?:it's|it is|this is|you have|it)?|(?:it's|it is|this is|this looks like|it looks like)\s+(?:more\s+)?(?:likely\s+)?|more likely|most likely)\b/;
export function setAside(tokens: string[], start: number, end: number): boolean {
  if (!MAYBE_BEFORE.test(tokens.slice(Math.max(0, start - 8), start).join(' '))) return false;
  const after = tokens.slice(end, end + 14).join(' ');
  if (!SET_ASIDE_AFTER.test(after)) return false;
  // The sentence must go on to name another condition as what it is ("either X or Y, but most likely X" keeps X).
  const rest = tokenize(after.replace(SET_ASIDE_AFTER, ''));
  const self = conditionMatcher.match(tokens.slice(start, end))[0]?.id;
  return conditionMatcher.match(rest).some((m) => m.id !== self);
}

// "Symptoms of a heart attack include chest pain and shortness of breath": teaching what a condition looks like.
const TEACHING = /\b(?:symptoms|signs|warning signs) of\b.*\b(?:include|includes|are|can be)\b/;
// "Your pneumonia has resolved", "the rash went away", "your covid test was negative": named to say it is gone or was not found.
const GONE_AFTER = /^(?:(?:from|of|that|which|you had)\s+)?(?:[\w']+\s+){0,4}?(?:has|have|had|is|was|were)\s+(?:now\s+|completely\s+|fully\s+)?(?:resolved|cleared|cleared up|gone away|gone|healed)\b|^(?:[\w']+\s+){0,3}?(?:went away|cleared up|resolved)\b|^(?:screening|screen|test|testing|swab|pcr|panel)\s+(?:was|is|were|came back)\s+(?:negative|normal)\b/;

// "your covid-19 shot", "the shingles vaccine", "you have completed your covid-19 [series]": the vaccine, not the disease.
const VACCINE_AFTER = /^(?:shots?|vaccines?|vaccinations?|boosters?|series|immuni[sz]ations?)\b/;
const VACCINE_BEFORE = /\bcompleted (?:your|the|his|her|their)$/;

/** Whether a sentence teaches about a condition, names its vaccine, or names it as resolved or not found by its test. */
export function notPresentSaid(tokens: string[], start: number, end: number): boolean {
  if (VACCINE_AFTER.test(tokens[end] ?? '') || VACCINE_BEFORE.test(tokens.slice(Math.max(0, start - 3), start).join(' '))) return true;
  return TEACHING.test(tokens.join(' ')) || GONE_AFTER.test(tokens.slice(end, end + 10).join(' '));
}

/** Whether the words before a mention (its start) name it as a risk. */
export const namedAsRisk = (tokens: string[], start: number): boolean => RISK_OF.test(`${tokens.slice(Math.max(0, start - 6), start).join(' ')} `);
