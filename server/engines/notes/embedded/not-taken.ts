/**
 * Drugs a sentence names that the patient is not taking now and the visit does not order: one the clinician decides
 * against, one another person takes, one the patient took once and no longer does. A challenge set written for what a
 * medication list must never hold (server/engines/notes/embedded/not-taken.test.ts) found each listed or ordered.
 */
import { findDrugs, type DrugMention } from './meds';

// "we decided against duloxetine", "I don't want to start you on gabapentin", "let's hold off on the statin".
const DECLINE_BEFORE =
  /\b(?:decided against|decided not to (?:start|use|prescribe|try|add)|hold(?:ing)? off on|(?:won't|will not|not going to|don't want to|do not want to|would not|wouldn't) (?:start|prescribe|use|try|add|give you|put you on)(?: you on)?)\s+((?:[a-z-]+\s*){1,4})/gi;
// "we talked about starting duloxetine, but we decided against it".
const DECLINE_AFTER = /\b(?:but|and)\s+(?:we|i)\s+(?:decided against it|decided not to|(?:will|are going to|'ll) hold off)\b/i;

/** The drugs a sentence says will not be started. */
export function declinedDrugs(text: string): DrugMention[] {
  const out: DrugMention[] = [];
  for (const m of text.matchAll(DECLINE_BEFORE)) out.push(...findDrugs(m[1]!));
  const after = DECLINE_AFTER.exec(text);
  if (after) out.push(...findDrugs(text.slice(0, after.index)));
  return out;
}

// "My husband takes warfarin", "my mom was on metformin": the relative is the one who takes it, and the patient does not say
// they take it too. A relative named otherwise ("my wife reminds me to take my lisinopril") leaves the drug the patient's.
const OTHER_PERSON =
  /\b(?:my|his|her|their|your)\s+(?:husband|wife|partner|spouse|mother|father|mom|dad|son|daughter|sister|brother|friend|grandmother|grandfather|grandma|grandpa|kids?|child|children|boyfriend|girlfriend|roommate|neighbou?r)\s+(?:\w+\s+){0,2}?(?:takes|is on|was on|uses|used to take|has been (?:on|taking)|had been on|is taking|was taking)\b/i;
const OWN_USE = /\b(?:i (?:also |still |now |currently )?(?:take|use|am on|'m on|am taking|'m taking)|i've been (?:taking|on)|we both)\b/i;
// "I used to take lisinopril", "I was on prednisone last year", "I stopped it two years ago", "I came off it": use that is
// over. "I ran out" or a bare "I stopped" is not: the drug is still the patient's prescription, often to be restarted.
const PAST_USE =
  /\b(?:used to (?:take|be on|use)|(?:was|were) on\b[^.]{0,40}\b(?:last (?:year|month|week|summer|winter)|years? ago|months? ago|in the past|at one point|for a while|as a (?:kid|child|teenager))|stopped (?:taking )?(?:it|that|them)\b[^.]{0,30}\b(?:ago|last (?:year|month|week))|came off|went off|no longer (?:take|taking|on|use)|not (?:on|taking) (?:it|that|them) anymore)\b/i;

/** Whether the drugs a sentence names are another person's or the patient's past use, not what the patient takes now. */
export function notTakenNow(text: string): boolean {
  if (OWN_USE.test(text)) return false;
  return OTHER_PERSON.test(text) || PAST_USE.test(text);
}

// "Can I take amoxicillin if I get an infection?", "what about ibuprofen?": a drug the patient asks about is one not yet
// taken (a browser trial, 3 Dec, listed amoxicillin the clinician then declined). "Can I take my metformin with food?" and
// "should I keep taking the lisinopril?" ask about a drug the patient has.
const ASKS_TO_TAKE =
  /\b(?:(?:can|could|should|may|would) i (?:also )?(?:take|try|use|get|have|start|go on|switch to)|(?:is it|would it be) (?:ok(?:ay)?|safe|fine|all right|alright) (?:if i |for me )?to (?:take|try|use)|what about|how about)\s+(?!my\b|the same\b)/i;

/** Whether a patient's question asks to take a drug the patient does not have. */
export const askedToTake = (text: string): boolean => ASKS_TO_TAKE.test(text) && !/\b(?:keep|still|continue)\b/i.test(text);
