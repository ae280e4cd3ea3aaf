/** Whose condition a mention is: the patient's, a relative's, another person's, or the clinician's own. */
import type { Sentence } from './sentence-types';

// A clause joined on with its own subject ("… is not well controlled, and your high blood pressure is close to goal") is
// not reached by a negation said in the clause before it; a list ("no fever and chills") has no subject of its own.
const NEW_CLAUSE = /^.*\b(?:and|but|while|whereas|although|though)\s+(?:(?:your|my|his|her|their|our)\s+|(?:i|you|he|she|we|they)\s+)/;
export const ownClause = (before: string) => `${before} `.replace(NEW_CLAUSE, '').trimEnd();
const RELATIVE =
  '(?:mother|father|mom|dad|sister|brother|grand\\w+|step(?:mother|father|mom|dad|son|daughter|sister|brother|kids?|children)|aunt|uncle|cousin|family|son|daughter|parents|sibling|husband|wife|spouse|partner|twin|niece|nephew|fianc[eé]e?|boyfriend|girlfriend|in-laws?)(?:s)?';
export const FAMILY = new RegExp(`\\b${RELATIVE}\\b`);
// Someone else the talk is about, said with "your", "a", "the": "your kids had strep", "your coworker had shingles", "a
// friend", "your dog has diabetes too", "everyone at work had the stomach flu".
// So are the people the patient looks after, teaches or serves ("your little one", "your students all have the flu", "your
// clients", "your caregiver has the flu", "half your class"), and a group of them said with what they have ("you work with
// kids who have the flu", "your patients with covid"), or one seen in others ("as a nurse you see a lot of cancer").
// So is what a group gets in general: "women your age often develop osteoporosis", "most smokers eventually get COPD".
const OTHER_PERSON =
  /\b(?:(?:your|my|his|her|their|our|the|a|an)\s+(?:[\w']+\s+)?(?:kids?|child|children|baby|babies|coworkers?|co-workers?|colleagues?|friends?|roommates?|neighbou?rs?|boss|classmates?|teammates?|dogs?|cats?|pets?|puppy|little ones?|youngest|oldest|toddlers?|newborns?|infants?|teenagers?|students?|class|clients?|customers?|caregivers?)|(?:kids|children|patients|people|students|clients|customers|folks|residents)\s+(?:who|that|with)|(?:see|sees|seeing|treat|treats|treating|care for|caring for)\s+(?:a lot of|lots of|so much|so many|plenty of)|(?:we've|we have|we)\s+(?:had|been having|been seeing|gotten)\s+(?:a lot of|lots of|so much|so many|plenty of)|(?:half|most|all|much|many|some)(?: of)? (?:the|this|your|our) (?:town|city|school|office|class|country|state|neighbou?rhood|community|clinic|church|building|floor|unit|staff|team)|(?:lots of|a lot of|plenty of|so many|tons of|many|several|most|other|of|one in \w+)\s+(?:people|patients|folks|kids|children|adults|women|men|americans|smokers|diabetics|seniors)|everyone|everybody|(?:women|men|kids|children|adults|smokers|drinkers|diabetics|athletes|runners|seniors|teenagers|teens|babies|infants|older (?:adults|people|folks|women|men))(?:\s+(?:of\s+)?your age)?(?:\s+(?!(?:you|your|i|my)\b)[\w']+){0,3}?\s+(?:get|develop|end up with|are prone to|suffer from|come down with))\b/;
// "You had asthma as a child", "when you were a kid": the patient as a child, no one else.
const AS_A_CHILD = /\b(?:as|when (?:you|i|he|she) (?:were|was)) (?:a|an) (?:child|kid|baby|teenager|teen)\b/g;
const othersWord = (text: string) => FAMILY.test(text) || OTHER_PERSON.test(text.replace(AS_A_CHILD, ''));
// "You have high blood pressure, like your dad": the patient's, with a relative named after it.
const OWNED_RIGHT_BEFORE = /\b(?:you (?:do |also |still )?have|you've(?: got| had| caught)?|you (?:caught|got|picked up)|your)(?:\s+[\w']+){0,3}$/;
// "Your students gave you the flu", "your kids passed strep throat on to you": theirs, and now the patient's too.
const GIVEN_TO_YOU = /\b(?:gave|given|give|passed)\s+(?:(?:it|this|that)\s+)?(?:(?:on\s+)?to\s+)?you(?:\s+(?:a|an|the|some|their|his|her))?$/;
const GIVEN_TO_YOU_AFTER = /^(?:(?:on|over)\s+)?to you\b/;
// "I get migraines too", "I have asthma myself", "I was diagnosed with diabetes last year too": the clinician's own, said by
// the clinician with a word that marks it as theirs beside the patient's. Without that word ("I have high blood pressure",
// "sorry, my allergies are acting up") it is read as the patient's: speaker tags swap in ACI-BENCH and in live diarization,
// and a clinician rarely tells their own conditions. "The new system gives me a headache" is no patient's either way.
// The words between "I have" / "gives me" and the condition: "a bad", "a touch of".
const QUALIFIERS = String.raw`(?:\s+(?:a|an|the|some|bad|terrible|awful|bit of|little|touch of))*$`;
const SPEAKER_HAS = new RegExp(
  String.raw`\b(?:i(?:'ve| have| was| am|'m)?(?:\s+(?:also|been|just|recently|once|myself))*\s+(?:have|get|had|got|caught|diagnosed with|dealing with|deal with|struggl(?:e|ed|ing) with|suffer(?:ed|ing)? from|used to (?:have|get))|my)${QUALIFIERS}`,
);
const SPEAKERS_OWN_MARK = /\b(?:myself|too|as well|also|so i (?:get|know|understand))\b/;
const GIVES_ME = new RegExp(String.raw`\b(?:gives?|gave|giving) me${QUALIFIERS}`);
// Someone else the clinician names as having it: "our nurse is out with the flu", "half the staff has covid this week".
const STAFF_HAS =
  /\b(?:our|my|the) (?:nurses?|staff|receptionists?|front desk|medical assistants?|doctors?|providers?|team|office)\b(?:\s+[\w']+){0,3}?\s+(?:has|have|had|is out with|are out with|was out with|were out with|is sick with|are sick with|is home with|caught|got|tested positive for|was diagnosed with)(?:\s+(?:a|an|the|some))?$/;
const OWN_NOT_RELATIVE = new RegExp(`\\b(?:my|your) (?:own|personal)\\b(?!\\s+${RELATIVE}\\b)`);
/**
 * Whether the condition at tokens [start, end) is someone else's: a relative's or another person's said before it in its
 * clause ("your mother had breast cancer", "your dad's colon cancer", "your coworker had shingles") or just after it with no
 * "you have" or "your" before it ("diabetes runs in your family"; not "you have diabetes like your mother"), or, in the
 * clinician's words, the clinician's own ("I get migraines too").
 */
export function someoneElses(s: Sentence, start: number, end: number): boolean {
  const before = s.tokens.slice(Math.max(0, start - 8), start).join(' ');
  const speakersOwn = (SPEAKER_HAS.test(before) && SPEAKERS_OWN_MARK.test(s.tokens.join(' '))) || GIVES_ME.test(before);
  if (s.role === 'CLINICIAN' && (speakersOwn || STAFF_HAS.test(before))) return true;
  if (OWN_NOT_RELATIVE.test(s.tokens.join(' '))) return false;
  if (GIVEN_TO_YOU.test(before) || GIVEN_TO_YOU_AFTER.test(s.tokens.slice(end, end + 3).join(' '))) return false;
  if (othersWord(ownClause(before)) || othersWord(s.tokens.slice(start, end).join(' '))) return true;
  return othersWord(s.tokens.slice(end, end + 4).join(' ')) && !OWNED_RIGHT_BEFORE.test(s.tokens.slice(Math.max(0, start - 4), start).join(' '));
}
