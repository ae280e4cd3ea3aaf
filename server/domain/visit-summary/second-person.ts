/**
 * The summary speaks to the patient: after the note's third person became "you", its verbs must agree
 * ("you understands" → "you understand", "you presents" → "you present", "you has" → "you have"), and what the
 * clinician said to someone in the room, or could not be heard, is not handed to the patient (issue 29 item 7).
 */
const IRREGULAR: Record<string, string> = { is: 'are', was: 'were', has: 'have', does: 'do', goes: 'go', "doesn't": "don't", "hasn't": "haven't", "isn't": "aren't", "wasn't": "weren't" };
// Words after "you" that end in s but are not a third-person verb.
const NOT_VERBS = new Set(['always', 'sometimes', 'perhaps', 'across', 'towards', 'unless', 'plus', 'thus', 'as', 'yours', 'its', 'this', 'us', 'less', 'various', 'serious', 'nervous', 'anxious', 'previous', 'famous', 'this', 'kids', 'guys', 'bus', 'gas', 'yes', 'was']);
const ADVERB = '(?:also|still|now|usually|often|really|just|never|always|then|already)';

function base(verb: string): string {
  const v = verb.toLowerCase();
  if (IRREGULAR[v]) return IRREGULAR[v];
  if (/ies$/.test(v)) return v.slice(0, -3) + 'y';
  if (/(?:ss|sh|ch|x|z|o)es$/.test(v)) return v.slice(0, -2);
  return v.slice(0, -1);
}

/** Subject-verb agreement after "you": the third-person verb the note had becomes the base form. */
export function agreeWithYou(text: string): string {
  return agreeOnce(text).replace(/\b(you [a-z]+ (?:and|or) )([a-z]+s)\b/gi, (m, head: string, verb: string) => (NOT_VERBS.has(verb.toLowerCase()) || /(?:ss|us|is)$/i.test(verb) ? m : head + base(verb)));
}

function agreeOnce(text: string): string {
  return text.replace(new RegExp(String.raw`\b(you)((?:\s+${ADVERB})?)\s+([a-z']+s|was|wasn't|isn't|hasn't|doesn't)\b`, 'gi'), (m, you: string, adv: string, verb: string) => {
    const v = verb.toLowerCase();
    if (v === 'was' || IRREGULAR[v]) return `${you}${adv} ${IRREGULAR[v] ?? v}`;
    if (NOT_VERBS.has(v) || /(?:ss|us|is)$/.test(v)) return m;
    return `${you}${adv} ${base(v)}`;
  });
}

// Speech to someone in the room, and what the recogniser was unsure of: never in the patient's hands.
const NOT_FOR_PATIENT = /\[unclear\]|UNCLEARSPAN|\?|\blet me\b(?! know)|\blet's\b|\bhey,? dragon\b|\bfinalize\b|\b(?:okay|alright|all right),?\s*$|\bdoes that (?:sound|make sense)\b|\bany questions\b|\b(?:I|we) (?:think|believe|feel|guess)\b|\bmy (?:impression|assessment|recommendation)\b|\bin regards to\b/i;

export function fitForPatient(sentence: string): boolean {
  return !NOT_FOR_PATIENT.test(sentence);
}
