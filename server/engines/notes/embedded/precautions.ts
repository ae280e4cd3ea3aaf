/**
 * Return precautions: when the patient is to seek care ("If you have any chest pain, go to the emergency room right away").
 * They are safety instructions, not reasoning about one problem: filed under a problem they competed for its few
 * budgeted places and were dropped (a browser trial, 3 Dec), so the plan's Instructions carry them, always.
 */
import type { NoteContext, Piece } from './compose';
import { stripFiller } from './compose';
import { capitalize, clinicianToNote, finishSentence, pronouns } from './text';

// The case said ("if", "should you", "in case") and where to go or whom to call then.
const IN_CASE = /\b(?:if|should (?:you|she|he|they)|in case|any ?time|whenever)\b/i;
const SEEK_CARE =
  /\b(?:go (?:straight |right )?(?:to|into) (?:the |an |your )?(?:nearest )?(?:emergency|er|ed|e\.r\.|hospital|urgent care)|call (?:911|9-1-1|an ambulance|us|me|the (?:office|clinic))|come (?:back|in|see (?:me|us))|return (?:to (?:the )?(?:clinic|office|emergency|er|ed|hospital|urgent care)|here)\b|seek (?:\w+ )?(?:care|attention|help)|head (?:straight )?to (?:the )?(?:emergency|er|hospital)|emergency (?:room|department))\b/i;
// A precaution opens on its case or its instruction; one inside a sentence about something else ("I will increase the
// lisinopril and if you get dizzy call me") stays with that sentence's plan.
const OPENS = /^(?:(?:and|but|so|also|please|otherwise|now),?\s+)*(?:if|should|in case|any ?time|whenever|call|go|come|return|seek|head|you (?:should|need to|must))\b/i;
// "If you have any questions, call me" and "call me if anything changes" keep in touch; they name no sign to act on.
const QUESTIONS = /\bif (?:(?:you|she|he|they) (?:have|has) (?:any )?(?:other |more |further )?(?:questions|concerns)|(?:anything|something) (?:changes|comes up))\b/i;

/** Whether a clinician's sentence tells the patient when to seek care. */
export function isPrecaution(text: string): boolean {
  const t = stripFiller(text);
  return OPENS.test(t) && IN_CASE.test(t) && SEEK_CARE.test(t) && !QUESTIONS.test(t);
}

/** The visit's return precautions in the note's voice ("If the patient has any chest pain, the patient should go to …"), in order said. */
export function precautionPieces(ctx: NoteContext): Piece[] {
  const who = pronouns(ctx.analysis.sex).subj;
  const seen = new Set<string>();
  const out: Piece[] = [];
  for (const s of ctx.analysis.sentences) {
    if (s.role !== 'CLINICIAN' || s.question || !isPrecaution(s.text)) continue;
    // The instruction said as an imperative after its case gets the patient as its subject, as a note states it.
    const text = finishSentence(clinicianToNote(stripFiller(s.text), ctx.analysis.sex).replace(/^please,?\s+/i, '').replace(/^(if [^,]+,\s*)(?:please\s+)?(go|call|come|return|seek|head)\b/i, (_m, lead: string, verb: string) => `${lead}${who} should ${verb.toLowerCase()}`));
    const key = text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text: capitalize(text), src: [s.tid] });
  }
  return out;
}
