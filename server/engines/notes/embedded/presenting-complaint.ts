/**
 * The symptom a clinician dictates as the reason for the visit ("John is a 61-year-old male who presents today with back
 * pain", "Here for chronic abdominal pain."). Scribes open the assessment with that sentence, so the symptom is a problem
 * of the visit even when the plan goes on to speak of it only as "your first problem" or by a test for it.
 */
import { canonicalTokens, conditionMentions, type Sentence } from './analyze';

// A dictated line says the age ("57-year-old", "62 year old") before the reason; a dictated header starts with the reason.
const AGE = /\b(?:\d+|[a-z]+)[- ]years?[- ]old\b/;
const PRESENTS = /\b(?:who |and |is |he's |she's )?(?:presents?|presenting|here|comes? in|coming in|seen)(?: today| to (?:the )?(?:clinic|office))? (?:with|for)\b/;
const HEADER = /^(?:presents?|presenting|here|seen)(?: today)? (?:with|for)\b/;
// Symptoms, and the pain codes outside chapter R that name a symptom at a site: a diagnosis is coded by the plan.
const SYMPTOM = /^(?:R|M25\.[56]|M54|M79\.6|G89)/;
// What the sentence goes on to list as the history ("… and has a past medical history of back pain") is not the reason.
const HISTORY = /^(?:history|pmh)$/;

/** The symptoms each dictated reason-for-visit sentence of the clinician names, with the sentence that names them. */
export function findPresentingSymptoms(sentences: Sentence[]): Array<{ code: string; sentence: Sentence }> {
  const out: Array<{ code: string; sentence: Sentence }> = [];
  for (const s of sentences) {
    if (s.role !== 'CLINICIAN' || s.question) continue;
    const tokens = canonicalTokens(s.tokens);
    const lower = tokens.join(' ');
    const verb = HEADER.exec(lower) ?? (AGE.test(lower) ? PRESENTS.exec(lower) : null);
    if (!verb) continue;
    const from = lower.slice(0, verb.index + verb[0].length).split(' ').length;
    const historyAt = tokens.findIndex((t, k) => k >= from && HISTORY.test(t));
    const to = historyAt < 0 ? tokens.length : historyAt;
    for (const m of conditionMentions(s)) {
      if (m.start >= from && m.start < to && !m.negated && !m.family && SYMPTOM.test(m.code)) out.push({ code: m.code, sentence: s });
    }
  }
  return out;
}
