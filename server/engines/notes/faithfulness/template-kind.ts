import { NORMAL_EXAM } from '../embedded/exam';
import type { TemplateKind } from './types';

/**
 * The fixed wording the embedded engine writes, read from where it writes it, so the checker can tell
 * template text from text written from the visit:
 * - agreement: embedded/plan.ts planBlocks, the "Patient Agreements" line;
 * - counselling: embedded/plan.ts planBlocks, "I discussed the diagnosis and treatment options for …";
 * - imaging-discussion: embedded/plan.ts planBlocks, the plan's opener when imaging was reviewed;
 * - follow-up: embedded/plan.ts followUpPiece, "The patient will follow up with me in …";
 * - opener: embedded/history.ts openingSentence, "… is a 45-year-old male … who presents to the clinic today …";
 * - normal-exam: embedded/exam.ts NORMAL_EXAM, the scribe wording of a normal system exam.
 * - plan-item: embedded/managed.ts fileOrphans, the "Medication management" heading of drugs that treat no problem named.
 * template-kind.test.ts runs the engine and checks each of these is recognised in what it writes.
 */
const FIXED: Array<[TemplateKind, RegExp]> = [
  ['agreement', /^The patient understands and agrees with the recommended medical treatment plan\.$/],
  ['counselling', /^I discussed the diagnosis and treatment options for .+ with the patient\.$/],
  ['imaging-discussion', /^After reviewing the patient's examination and radiographic findings today, I have had a discussion with the patient in regards to (?:her|his|their) current symptoms\.$/],
  ['follow-up', /^The patient will follow up with me in (?:\d+|a couple of|a few) (?:days?|weeks?|months?|years?)\.$/],
  ['plan-item', /^(?:\d+\.\s+)?Medication management\.$/],
  ['opener', /^.{1,60}? (?:is an? (?:\d+-year-old )?(?:female|male|patient)(?: with a past medical history significant for .+?)? who presents to the clinic today|presents to the clinic today for (?:the evaluation of|an? |follow[- ]?ups? ))\b.*\.$/],
];
const NORMAL = new Set(NORMAL_EXAM.map((n) => n.text));

/** Which fixed wording of the engine a note sentence is, if any. */
export function templateKind(sentence: string): TemplateKind | undefined {
  const s = sentence.trim();
  if (NORMAL.has(s)) return 'normal-exam';
  return FIXED.find(([, re]) => re.test(s))?.[0];
}
