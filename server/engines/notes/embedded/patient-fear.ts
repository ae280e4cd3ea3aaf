/**
 * What the patient fears it is ("you were worried about having a stroke", "your concern was that this was cancer") is the
 * question the visit answers, not its answer: the condition is coded only when the clinician names it as theirs.
 */
const FEAR =
  /\b(?:(?:you|you're|you are|you were|you've been|you have been)\s+(?:(?:a little|a bit|really|very|so|quite|kind of|pretty)\s+)?(?:worried|concerned|scared|afraid|nervous|anxious|frightened)\s+(?:about (?:having|getting|it being|this being|it's|that it's)|of (?:having|getting)|(?:that )?(?:you (?:have|had|might have|may have|could have)|(?:this|it) (?:is|was|might be|could be|may be)))|your (?:concern|worry|fear) (?:was|is)(?: that)?(?: (?:you (?:have|had|might have)|(?:this|it) (?:is|was|might be|could be)))?)\s+(?:(?:a|an|the|some)\s+)?$/;

/** Whether the words said before a condition (lower case) say only that the patient fears it. */
export function isPatientFear(before: string): boolean {
  return FEAR.test(before.replace(/\s+$/, ' ').trimStart());
}
