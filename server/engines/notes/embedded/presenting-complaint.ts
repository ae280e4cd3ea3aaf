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

// The clinician's opening question, answered with why the patient came.
const OPENER = /\b(?:brings you (?:in|here)|what can i do for you|how can i help you|what are you here for|what(?:'s| is) going on(?: today)?|what seems to be the problem)\b/;
// The patient's own condition, worse or acting up: "my asthma has been worse", "my eczema is flaring".
const WORSE = /\b(?:worse|worsening|flar(?:e|ed|ing)|acting up|bothering me|out of control|not controlled|getting bad)\b/;
// Or the condition the visit follows up: "I'm here for my diabetes and blood pressure follow-up".
const FOLLOW_UP = /\b(?:here for|in for|came (?:in )?for|coming in for)\b.*\b(?:follow[- ]?up|check[- ]?up|recheck)\b|\b(?:follow[- ]?up|check[- ]?up|recheck) (?:on|for|of) my\b/;
// A patient's "my blood pressure" followed up is their hypertension.
const MY_PRESSURE = /\bmy (?:(?:\w+ and )?)?blood pressure\b/;

/**
 * A known condition the patient gives as the reason for coming ("What brings you in today?" "My asthma has been worse for
 * the last week", "I'm here for my diabetes and blood pressure follow-up"): the visit is for it, however garbled the plan
 * that follows (a browser trial, 7 Dec, coded neither). Only a condition of the patient's own, worse or followed up: a
 * symptom or a worry named there is the complaint, not a diagnosis.
 */
export function findPatientReason(sentences: Sentence[]): Array<{ code: string; sentence: Sentence }> {
  // The opening question is often said with the greeting, which the analysis drops, or lost in an unheard stretch.
  const said = sentences.filter((s) => s.tokens.some((t) => t !== 'unclearspan'));
  const answer = said[0]?.role === 'PATIENT' ? said[0] : OPENER.test(said[0]?.tokens.join(' ') ?? '') ? said[1] : undefined;
  if (!answer || answer.role !== 'PATIENT' || answer.question) return [];
  const text = answer.tokens.join(' ');
  const worse = WORSE.test(text);
  const followedUp = FOLLOW_UP.test(text);
  if (!worse && !followedUp) return [];
  const own = (start: number) => answer.tokens[start - 1] === 'my' || (answer.tokens[start - 1] === 'and' && followedUp && answer.tokens.slice(0, start).includes('my'));
  const out = conditionMentions(answer)
    .filter((m) => !m.negated && !m.family && !SYMPTOM.test(m.code) && own(m.start))
    // Said worse, an asthma or COPD is an exacerbation (J45.901, J44.1), not "uncomplicated".
    .map((m) => ({ code: worse && m.code === 'J45.909' ? 'J45.901' : worse && m.code === 'J44.9' ? 'J44.1' : m.code, sentence: answer }));
  if (followedUp && MY_PRESSURE.test(text) && !out.some((d) => /^I1[0-6]/.test(d.code))) out.push({ code: 'I10', sentence: answer });
  return out;
}
