/**
 * A condition put forward as what may lie behind a symptom ("anemia could explain your fatigue", "fatigue can come from
 * hypothyroidism", "sleep apnea could be causing your tiredness") is a cause to work up, not a diagnosis made: until it
 * is established the symptom is coded (ICD-10-CM guidelines, section IV.H). One the patient is known to have ("your
 * sleep apnea could be causing your fatigue") is theirs either way.
 */
const AS_CAUSE_AFTER = /^(?:(?:could|might|may|can|would)\s+(?:also\s+)?(?:explain|be explaining|be causing|cause|be the cause of|be the reason for|be behind)\b|(?:is|would be) (?:a |one )?(?:possible|potential|likely) (?:cause|reason|explanation)\b)/;
const FROM_BEFORE = /\b(?:can|could|may|might)\s+(?:also\s+)?(?:come from|be from|be caused by|be due to|be a sign of|be a symptom of)\s+(?:(?:a|an|some)\s+)?$/;
// "Your", "her", "his" before it: the patient's own condition, named as the cause.
const OWN = /\b(?:your|her|his|their|my)\s+(?:[\w'-]+\s+)?$/;

/** Whether the condition at tokens[start, end) is only put forward as a possible cause of something. */
export function isPossibleCause(tokens: string[], start: number, end: number): boolean {
  const before = `${tokens.slice(Math.max(0, start - 8), start).join(' ')} `;
  if (OWN.test(before)) return false;
  return FROM_BEFORE.test(before) || AS_CAUSE_AFTER.test(tokens.slice(end, end + 8).join(' '));
}
