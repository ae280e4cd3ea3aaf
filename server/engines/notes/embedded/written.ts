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
import { capitalize, finishSentence, pronouns, type Sex } from './text';

const NAME_AFTER = String.raw`(?:[, ]+(?:(?:doctor|dr\.?|mr\.?|mrs\.?|ms\.?|miss)\s+)?[a-z]+(?=[,.!]|\s+(?:how|what|nice|good|thanks|thank|it's|so|i|i'm|come|have|welcome)\b))?`;
// A greeting word opens the utterance: "hi", "hello there", "good morning", a bare "morning" only when what
// follows is more greeting or the opening question ("morning stiffness" is a finding). A whole word: "High blood
// pressure can lead to a stroke" lost its "Hi" (a browser trial, 3 Dec: "Gh blood pressure").
const GREETING_LEAD = new RegExp(
  String.raw`^(?:(?:okay|ok|so|well|oh|and)[, ]+)*(?:(?:hi|hello|hey)\b(?: there| again| everyone)?|good (?:morning|afternoon|evening)\b|welcome\b(?: back| in)?|(?:morning|afternoon|evening)(?=[,.!]|\s*$|\s+(?:what|how|thanks|thank|doctor|dr|mr|mrs|ms|nice|good|everyone|i am|i'm|my name|there)\b))${NAME_AFTER}[,.!]?\s*`,
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

// The clinician's first person as said, not as documented: a hedge ("I think"), an intention ("I am going to"),
// a feeling ("I am glad"), a wish ("I want her to"). "I reviewed", "I recommended", "I discussed" are the
// documentation voice and stay. Matched on text after the voice conversion ("I'm" → "I am", "we'll" → "we will").
export const FIRST_PERSON_SPEECH =
  /\bI (?:(?:do|did|would|will|am|can|could|also|still|really|just|actually|definitely|honestly) )*(?:not |n't )?(?:think|thinking|believe|feel|suspect|guess|guessing|know|want|wanted|like|mean|hope|wonder|worry|worried|am|can|could|might|would|will|need|have to|got|see|hear|going|gonna|sorry|glad|happy|pleased|concerned|afraid|sure|cannot)\b|\bI'm\b|\bI'll\b|\bI'd\b|\bwe'll\b|\blet's\b|\blet me\b(?! know)/;
// A clause opens the sentence (after fillers) or, in a run-on, anywhere a word starts.
const CLAUSE = String.raw`(?:^(?:(?:so|and|but|now|well|also|then|okay|ok|um|uh),?\s+)*|\b)`;
const SUBJECT = String.raw`(?:this|that|it|he|she|they|we|the patient|(?:his|her|their|the) [a-z'-]+(?: [a-z0-9'-]+){0,2})`;
// "I (do) think this is acute bronchitis" → "This is likely acute bronchitis": the hedge kept in the note's word.
const HEDGE = new RegExp(String.raw`${CLAUSE}(?:I|we) (?:do |also |still |really )*(?:think|believe|suspect|feel)(?: like)?,? (?:that )?(${SUBJECT}) (is|are|was|were|has|have|had|need|needs|may|might|could|will|would|should)(?: (?:probably|likely|most likely|possibly))? `, 'gi');
// "I do not think it is controlled" → "It is likely not controlled"; "I don't think he needs an x-ray" → "He likely does not need an x-ray".
const NEGATED_HEDGE = new RegExp(String.raw`${CLAUSE}(?:I|we) (?:do not|did not) (?:think|believe|feel)(?: that)? (${SUBJECT}) (is|are|was|were|needs?|has|have) (?:not )?`, 'gi');
// "I am glad to see that she is in therapy" → "She is in therapy": the feeling goes, what was seen stays.
const FEELING_LEAD = new RegExp(String.raw`^(?:(?:so|and|but|now|well|also|then|okay|ok),?\s+)*I am (?:so |very |really )?(?:glad|happy|pleased|relieved) (?:to (?:see|hear|know) )?that `, 'i');
// "I know that he had the cuff repaired" → "He had the cuff repaired".
const KNOWN_LEAD = new RegExp(String.raw`^(?:(?:so|and|but|now|well|also|then|okay|ok),?\s+)*(?:I know|I see|I noticed|I note)(?: that)? (?=${SUBJECT} )`, 'i');
// "I am also going to order an MRI" → "We will also order an MRI", said anywhere in the sentence.
const INTENTION = /\bI (?:am (also |then |not |still )?(?:going to|gonna)|will (also |then |not |still )?)\s*(?:go ahead and )?(?=[a-z])/g;
// What a cut leaves dangling: "We will get a recheck on her A1c and then [I am …]".
const DANGLING = /(?:[\s,;]+(?:and|but|so|then|as|because|or|that|which|if|since|when))*[\s,;]*$/i;

/** The subject as the rewritten clause says it: capitalised where it opens the sentence. */
const subjectAt = (who: string, offset: number) => (offset === 0 ? capitalize(who) : who);
const plural = (who: string) => /^(?:we|they)$/i.test(who);

/**
 * The clinician's first-person speech in the note's voice, or '' when it cannot be said there without adding
 * to what was said (issue 27, written not pasted): a hedge stays a hedge ("likely"), an intention is the plan
 * ("we will"), a wish for the patient is advice given, a feeling goes. What is still the clinician's spoken
 * first person after that is cut off where it starts, when what comes before it is a sentence, and otherwise
 * the sentence is left out rather than reworded into something nobody said. `keepSpoken` rewrites but never cuts.
 */
export function clinicianVoice(text: string, sex: Sex, opts: { keepSpoken?: boolean } = {}): string {
  // Spoken contractions in full first, as the note is written ("I don't think" is "I do not think").
  let t = text.trim().replace(/\b(do|does|did|would|could|should|is|are|was|were|have|has)n't\b/gi, '$1 not').replace(/\bcan't\b/gi, 'cannot').replace(/\bwon't\b/gi, 'will not')
    .replace(/\bI'm\b/gi, 'I am').replace(/\bI'll\b/gi, 'I will').replace(/\bI'd like\b/gi, 'I would like').replace(/\bwe'll\b/gi, 'we will');
  if (!FIRST_PERSON_SPEECH.test(t)) return t;
  const patient = pronouns(sex);
  const wished = new RegExp(String.raw`^(?:(?:so|and|but|now|well|also|then|okay|ok),?\s+)*(?:I|we) (?:also |do |really )*(?:want|would like|would want) (${patient.obj}|the patient) to (?:go ahead and )?(?!know|understand|be aware|feel|see that)`, 'i');
  t = t
    .replace(/\bI would recommend\b/g, 'I recommend')
    .replace(HEDGE, (_m, who: string, verb: string, offset: number) => {
      const v = verb.toLowerCase();
      const subject = subjectAt(who, offset);
      if (/^(?:is|are|was|were|will|would)$/.test(v)) return `${subject} ${v} likely `;
      if (/^(?:has|have|had|need|needs)$/.test(v)) return `${subject} likely ${v} `;
      return `${subject} ${v} `; // may, might, could: already a hedge; should: a recommendation
    })
    .replace(NEGATED_HEDGE, (_m, who: string, verb: string, offset: number) => {
      const v = verb.toLowerCase();
      const subject = subjectAt(who, offset);
      if (/^(?:is|are|was|were)$/.test(v)) return `${subject} ${v} likely not `;
      return `${subject} likely ${plural(who) ? 'do' : 'does'} not ${v.startsWith('need') ? 'need' : 'have'} `;
    })
    .replace(FEELING_LEAD, '')
    .replace(KNOWN_LEAD, '')
    .replace(wished, `${patient.title} was advised to `)
    .replace(INTENTION, (_m, am: string | undefined, will: string | undefined) => `we will ${am ?? will ?? ''}`);
  t = capitalize(t);
  const spoken = FIRST_PERSON_SPEECH.exec(t);
  if (!spoken || opts.keepSpoken) return t;
  // A self-correction ("in a couple weeks, or, I am sorry, a couple months") takes back what came before it.
  if (/^I (?:am )?(?:sorry|mean)\b/i.test(t.slice(spoken.index))) return '';
  const before = t.slice(0, spoken.index).replace(DANGLING, '');
  return before.split(' ').length >= 5 ? finishSentence(before) : '';
}

/**
 * A note sentence as a scribe writes it, or '' when it is speech that cannot be written in the note's voice.
 * Medication directions ("Continue with his statin.") are the scribe's own imperative style and stay.
 */
export function writtenSentence(text: string, sex: Sex): string {
  const t = clinicianVoice(text, sex, { keepSpoken: true });
  if (!t || DIRECTED.test(t) || QUESTION.test(t)) return '';
  if (INSTRUCTION.test(t)) {
    const advised = `${pronouns(sex).title} was advised to ${t[0].toLowerCase()}${t.slice(1)}`;
    return SECOND_PERSON.test(advised) ? '' : advised;
  }
  return SECOND_PERSON.test(t) ? '' : t;
}
