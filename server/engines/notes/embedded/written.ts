/**
 * Written, not pasted (issue 27 items 3 and 5). Two passes, each general rather than tied to one dialogue:
 * - before analysis, greetings and small talk are cut out of every utterance, punctuated or not, so they
 *   reach no section: a recogniser's "morning what brings you in today" is a greeting and an opening question,
 *   "hi karen how are you" inside a run-on is a greeting, "thanks for taking me in" is a pleasantry;
 * - when a note sentence is rendered, what is still speech addressed to someone in the room is rewritten in
 *   the third person where that keeps every word's meaning (an instruction to the patient becomes "The
 *   patient was advised to …"), and left out where it cannot be (a question, a direction given during the
 *   exam, words said to the recorder, a "you" the voice conversion could not place).
 * Tuned on the ACI-BENCH train tune fold only.
 */
import { pronouns, type Sex } from './text';

const NAME_AFTER = String.raw`(?:[, ]+(?:(?:doctor|dr\.?|mr\.?|mrs\.?|ms\.?|miss)\s+)?[a-z]+(?=[,.!]|\s+(?:how|what|nice|good|thanks|thank|it's|so|i|i'm|come|have|welcome)\b))?`;
// A greeting word opens the utterance: "hi", "hello there", "good morning", a bare "morning" only when what
// follows is more greeting or the opening question ("morning stiffness" is a finding).
const GREETING_LEAD = new RegExp(
  String.raw`^(?:(?:okay|ok|so|well|oh|and)[, ]+)*(?:(?:hi|hello|hey)(?: there| again| everyone)?|good (?:morning|afternoon|evening)|welcome(?: back| in)?|(?:morning|afternoon|evening)(?=[,.!]|\s*$|\s+(?:what|how|thanks|thank|doctor|dr|mr|mrs|ms|nice|good|everyone|i am|i'm|my name|there)\b))${NAME_AFTER}[,.!]?\s*`,
  'i',
);
// Pleasantries said anywhere in an utterance; each is content-free. "see you back in 4 weeks" is follow-up, not this.
const PLEASANTRY = [
  // Only as its own clause: "how are you doing since the heart attack" asks about the visit's subject.
  /\bhow (?:are|r) (?:you|ya|we|things|her|him|they)(?: doing| feeling| today| this (?:morning|afternoon|evening))*(?=\s*(?:[,.!?]|$)|\s+(?:i|i'm|we|so|okay|what|good|great|well|fine)\b)[?,.!]?\s*/gi,
  /\bhow(?:'s| is| has) (?:it|everything) (?:going|been)(?: today)?(?=\s*(?:[,.!?]|$))[?,.!]?\s*/gi,
  /\bhow have you been\??,?\s*/gi,
  /\b(?:it's |it is )?(?:nice|good|great|a pleasure) (?:to (?:meet|see)|meeting|seeing) you(?: again| too| today)?[,.!]?\s*/gi,
  /\b(?:i'm|i am) (?:doing )?(?:well|good|fine|okay|great)(?:,? thanks?(?: you)?)?(?:,? (?:and|how about) (?:you|yourself))?(?=[,.!?]|\s*$)[,.!?]?\s*/gi,
  /\bthanks? (?:you )?(?:so much |very much )?for (?:coming in|coming|seeing me|having me|taking me in|fitting me in|your time|squeezing me in)(?: today)?[,.!]?\s*/gi,
  /\bthanks?(?: you)?,? (?:doctor|dr\.?|doc)(?: [a-z]+)?[,.!]?\s*/gi,
  /\bi (?:really )?appreciate it[,.!]?\s*/gi,
  /\b(?:take care|have a (?:good|great|nice|wonderful) (?:day|one|weekend|afternoon|evening)|bye(?:-bye)?|see you (?:later|soon|then))(?:,?\s*(?:and|okay))?[,.!]?\s*/gi,
  // The opening question asks nothing a note records; the patient's answer says why they came.
  /\b(?:so )?(?:what brings you (?:in|here)(?: today| to see me| to the clinic)*|what can i do for you(?: today)?|how can i help(?: you)?(?: today)?|what's going on(?: today)?|what are you here for(?: today)?)\??,?\s*/gi,
];

/** The utterance without its greetings and small talk; '' when nothing else was said. */
export function stripSmallTalk(text: string): string {
  const said = text.trim();
  let t = said;
  for (let k = 0; k < 3; k++) {
    const before = t;
    t = t.replace(GREETING_LEAD, '');
    for (const re of PLEASANTRY) t = t.replace(re, '');
    t = t.replace(/^[\s,.;!?-]+/, '').trim();
    if (t === before) break;
  }
  // What is left of a greeting is a filler: "okay", "good". A bare "yes" with no small talk cut is an answer and stays.
  if (t !== said && /^(?:(?:okay|ok|so|well|oh|and|yes|yeah|good|great|thanks?|thank you|alright|all right|sure|fine)[,.!]?\s*)*$/i.test(t)) return '';
  return t;
}

// Directions given during the exam, and words said to the recorder or the scribe: nothing a note records.
const DIRECTED =
  /^(?:(?:okay|so|now|and|then|alright)[, ]+)*(?:(?:go ahead and )?(?:hop|jump|squeeze|push|pull|kick|lean|lie|lay|sit|stand|bend|relax|turn|raise|lift|point|breathe|open|close|cough for me|look (?:up|down|at|straight|over)|follow my|say ah|stick out|bring it|finalize|order any|come with me|hold (?:still|it|your))\b|go ahead and (?:finalize|order any|bring|lean|lie|sit|stand|hop|take a deep|relax)\b)|\blet me\b(?! know)|\blet's\b|\b(?:hey,? dragon|finalize the (?:note|recording))\b/i;
// A second person the voice conversion could not place, and a question read out as a statement.
const SECOND_PERSON = /\b(?:you|your|you're|you've|you'll|you'd|yours|yourself|ya)\b/i;
const QUESTION = /\?|^(?:(?:so|and|okay|now)[, ]+)*(?:(?:do|does|did|are|is|have|has|can|could|would|will)\s+(?:you|it|that|this|there)|(?:how|what|when|where|why|which)\s+(?:are|do|did|is|does|have)\s+(?:you|it|that|they))\b/i;
// An instruction to the patient, said as one: written as advice given ("The patient was advised to …").
const INSTRUCTION = /^(?:keep|come back|call|make sure|avoid|try|use|drink|ice|rest|elevate|apply|watch|monitor|let me know|return|wear|limit|cut back|get plenty|check your|take it easy|stay)\b/i;

/**
 * A note sentence as a scribe writes it, or '' when it is speech that cannot be written in the note's voice.
 * Medication directions ("Continue with his statin.") are the scribe's own imperative style and stay.
 */
export function writtenSentence(text: string, sex: Sex): string {
  const t = text.trim();
  if (!t || DIRECTED.test(t) || QUESTION.test(t)) return '';
  if (INSTRUCTION.test(t)) {
    const advised = `${pronouns(sex).title} was advised to ${t[0].toLowerCase()}${t.slice(1)}`;
    return SECOND_PERSON.test(advised) ? '' : advised;
  }
  return SECOND_PERSON.test(t) ? '' : t;
}
