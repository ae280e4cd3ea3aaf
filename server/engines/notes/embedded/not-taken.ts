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

// "My husband takes warfarin", "my mom was on metformin": the drug is another person's unless the patient says it is theirs too.
const OTHER_PERSON = /\b(?:my|his|her|their|your)\s+(?:husband|wife|partner|spouse|mother|father|mom|dad|son|daughter|sister|brother|friend|grandmother|grandfather|grandma|grandpa|kids?|child|children|boyfriend|girlfriend|roommate|neighbou?r)\b/i;
const OWN_USE = /\b(?:i (?:also |still |now )?(?:take|use|am on|'m on|am taking|'m taking)|i've been (?:taking|on)|we both)\b/i;
// "I used to take lisinopril but I stopped it", "I was on prednisone last year", "I ran out a month ago".
const PAST_USE = /\b(?:used to (?:take|be on|use)|(?:was|were|had been) (?:on|taking|using)|came off|went off|stopped|quit|ran out|no longer|not (?:on|taking) (?:it|that|them) anymore|took (?:it|that|them) for)\b/i;
const STILL_TAKES = /\b(?:still (?:take|taking|on|use|using)|(?:currently|now) (?:take|taking|on|use|using)|i (?:take|am taking|'m taking|am on|'m on) (?:it|that|them)?\s*(?:now|every|each|daily|once|twice))\b/i;

/** Whether the drugs a sentence names are another person's or the patient's past use, not what the patient takes now. */
export function notTakenNow(text: string): boolean {
  if (OTHER_PERSON.test(text) && !OWN_USE.test(text)) return true;
  return PAST_USE.test(text) && !STILL_TAKES.test(text);
}
