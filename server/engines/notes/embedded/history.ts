/** History of present illness, review of systems and the one-liner. */
import { NO, YES, conditionMentions } from './analyze';
import { CHITCHAT, CLINICAL, priorQuestion, questionTopic, stripFiller, type NoteContext, type Piece } from './compose';
import { rosMatcher } from './lexicon';
import { findDrugs, parseOrder } from './meds';
import { sigText } from './medications';
import { capitalize, clinicianToNote, finishSentence, pronouns, toThirdPerson } from './text';

const ROS_DISPLAY: Record<string, string> = { tired: 'fatigue', tiredness: 'fatigue', lightheaded: 'lightheadedness', dizzy: 'dizziness', 'chest pains': 'chest pain', coughing: 'cough', 'short of breath': 'shortness of breath', rashes: 'rash' };

export interface HistoryFacts { hpi: Piece[][]; ros: Map<string, { pos: Set<string>; neg: Set<string>; src: Set<string> }> }


// How the patient has been, said before what they go on to tell: "pretty well", "doing good", "i've been fine".
const WELLBEING_LEAD = /^(?:(?:i'm|i am|i've been|i have been|been|doing|pretty|really|very|quite|not too|not so)\s+)*(?:well|good|fine|okay|ok|great|alright|all right|bad)[,.]?\s+(?:(?:but|except|though|although)\s+)?(?=(?:i|i'm|i've|my)\b)/i;
export function historyFacts(ctx: NoteContext): HistoryFacts {
  const { analysis } = ctx;
  // The patient's pronouns ("she", "her"), and the subject that opens a sentence about them ("She", "The patient").
  const pronoun = pronouns(analysis.sex);
  const SentenceSubject = capitalize(pronoun.subj);
  const paragraphs: Piece[][] = [[]];
  const ros: HistoryFacts['ros'] = new Map();
  const addRos = (text: string, positive: boolean, tid: string) => {
    const toks = text.toLowerCase().split(/[^a-z0-9']+/).filter(Boolean);
    for (const m of rosMatcher.match(toks)) {
      const entry = ros.get(m.id) ?? { pos: new Set(), neg: new Set(), src: new Set() };
      const raw = m.term.replace(/\byour\b/, 'her');
      const term = ROS_DISPLAY[raw] ?? raw;
      // A negation only counts when it governs this term, not anywhere in the sentence ("not sure").
      const before = toks.slice(Math.max(0, m.start - 4), m.start).join(' ');
      const negHere = /\b(no|denies|deny|without|never|any)\b/.test(before) || (/\bnot\b/.test(before) && !/\bnot sure\b/.test(before));
      (positive && !negHere ? entry.pos : !positive || negHere ? entry.neg : entry.pos).add(term);
      entry.src.add(tid);
      ros.set(m.id, entry);
    }
  };
  const limit = ctx.verbosity === 'CONCISE' ? 6 : ctx.verbosity === 'DETAILED' ? 60 : 26;
  let count = 0;
  let hpiWords = 0;
  // Budgets tuned on the ACI-BENCH train split: scribe HPIs run about 130 words.
  const wordBudget = ctx.verbosity === 'DETAILED' ? 10_000 : ctx.verbosity === 'CONCISE' ? 80 : 150;
  let lastTopicTurn = -1;
  for (const s of analysis.sentences.slice(0, analysis.examStart)) {
    if (count >= limit || hpiWords >= wordBudget) break;
    if (s.role === 'CLINICIAN') {
      // Clinicians of the dictating style state the one-liner themselves ("… is a 50-year-old female …").
      if (/\b\d+[- ]year[- ]old\b/.test(s.text) && !s.question) {
        const t = finishSentence(clinicianToNote(stripFiller(s.text), analysis.sex).replace(/^.*?(\b[a-z]+ is a \d+)/i, '$1'));
        paragraphs[0].unshift({ text: t, src: [s.tid] });
      }
      const topic = /\b(?:in terms of|regarding|how about|what about|as far as|how are you doing with|how's|how is) (?:your|the) ([a-z0-9' -]{3,40})/i.exec(s.text);
      if (topic && conditionMentions(s).length && s.turn !== lastTopicTurn && paragraphs.at(-1)!.length) {
        paragraphs.push([]);
        lastTopicTurn = s.turn;
      }
      // The clinician summing up what was denied ("so no fever, no chills") records it for the review of systems.
      if (!s.question && /^(?:(?:so|and|okay|alright|good),?\s+)*(?:no\b|you(?:'re| are) not having\b|you(?:'ve| have)? not had\b|you haven't had\b)/i.test(s.text))
        for (const m of conditionMentions(s)) if (m.negated && !m.family) addRos(m.surface, false, s.tid);
      // The clinician going over the history from the chart ("you had a lumpectomy on January 20th") states it.
      const told = clinicianHistory(s.text, s.question);
      if (told) {
        const text = finishSentence(clinicianToNote(told, analysis.sex));
        paragraphs.at(-1)!.push({ text, src: [s.tid] });
        hpiWords += text.split(' ').length;
        count++;
      }
      continue;
    }
    if (CHITCHAT.test(s.text) && !CLINICAL.test(s.text.replace(CHITCHAT, ''))) continue;
    // An allergy is filed under Allergies; its reaction is not a symptom of this visit (issue 27).
    if (s.allergy) continue;
    // Greetings and getting started are not history, even when they name the doctor ("hi, doctor taylor").
    if (/^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b/i.test(s.text) && s.text.split(' ').length <= 6) continue;
    const question = priorQuestion(ctx, s);
    if (question && /\bready to (?:get started|start|begin|go)\b/i.test(question.text)) continue;
    // Unpunctuated speech runs the greeting's answer into the history: "pretty well i take my metformin …" is "I take
    // my metformin …", never "The patient reports pretty the patient takes …" (a recorded visit, 28 Nov).
    let answer = stripFiller(s.text.replace(WELLBEING_LEAD, '')).replace(WELLBEING_LEAD, '');
    const topic = question ? questionTopic(question.text) : null;
    const words = s.text.replace(/[^a-z0-9' ]/gi, ' ').trim().split(/\s+/);
    const src = question ? [question.tid, s.tid] : [s.tid];
    if (topic && s === analysis.turns[s.turn].sentences[0]) {
      const topicNote = clinicianToNote(topic, analysis.sex);
      if (NO.test(s.text.trim())) {
        paragraphs.at(-1)!.push({ text: finishSentence(`${SentenceSubject} denies ${topicNote}`), src });
        addRos(topic, false, s.tid);
        count++;
        if (words.length <= 4) continue;
        // The denial is written; what follows the "no" ("no, just a headache") is read on its own.
        // Only a "no" that stands alone: unpunctuated speech's "no chest pain but my knee hurts" keeps it, or the note
        // would read "reports chest pain" (a negation flip found recording a visit, issue 27).
        answer = answer.replace(/^(?:no|nope|nah)(?:[,.]\s*|\s+(?=(?:just|but|only|i|i'm|it|it's|that|not|nothing|although|though|however|and|so|actually|well|thankfully|luckily|a|an|the|my|some|really)\b))/i, '');
      } else if (YES.test(s.text.trim()) && question && findDrugs(topic).length > 0 && (/\b(taking|take|on|using)\b/i.test(topic) || /\bi (?:take|am taking|'m taking|use)\b/i.test(s.text))) {
        // "Are you taking metformin 500 mg twice a day?" "Yes": the drug and its sig from the coded order, not the question's words.
        const taken = findDrugs(topic).map((d) => [d.spoken, sigText(parseOrder(question.text, d, ctx.codes))].filter(Boolean).join(' '));
        paragraphs.at(-1)!.push({ text: finishSentence(`${SentenceSubject} is taking ${listJoin(taken)}`), src });
        count++;
        // Unpunctuated speech runs the yes into what the patient says next ("yes with breakfast and dinner i also take
        // lisinopril twenty milligrams once a day"): a clause of its own that names another drug is read on, not lost.
        const rest = /\bi\s+(?:also\s+)?(?:take|am taking|'m taking|use|have been taking|am on|'m on)\b.*$/i.exec(answer)?.[0];
        const asked = new Set(findDrugs(topic).map((d) => d.ingredient));
        if (!rest || !findDrugs(rest).some((d) => !asked.has(d.ingredient))) continue;
        answer = rest;
      } else if (YES.test(s.text.trim()) && words.length <= 4) {
        const verb = /^(taking|using|doing|working|sleeping|eating|exercising|walking|checking)\b/.test(topicNote) ? 'is' : 'reports';
        paragraphs.at(-1)!.push({ text: finishSentence(`${SentenceSubject} ${verb} ${topicNote}`), src });
        addRos(topic, true, s.tid);
        count++;
        continue;
      }
    }
    if (words.length < 3 || !CLINICAL.test(s.text)) continue;
    // A patient's own question ("do you think it could be …") is not history.
    if (s.question || /^(?:because|cause|or|if|but|and|so|like)\b/i.test(answer)) continue;
    // A dose cut from its number by the recogniser's split ("yes metformin one pounds" / "milligrams twice a day") is
    // a fragment, never "The patient reports milligrams twice daily." (a recorded visit of issue 27).
    if (/^(?:milligrams?|mg|mcg|micrograms?|grams?|units?|tablets?|pills?|capsules?|puffs?|milliliters?|ml)\b/i.test(answer)) continue;
    // A bare negative reply ("not that I've noticed") says nothing without its question.
    if (/^(?:no|not|nope|never|nothing)\b/i.test(answer) && words.length <= 6) continue;
    if (ctx.verbosity === 'CONCISE' && !/\d|\b(pain|since|ago|started|weeks?|days?|months?)\b/i.test(s.text)) continue;
    // The patient's "you" is the clinician, who writes the note as "I": "the one that you prescribed" → "that I prescribed".
    let body = toThirdPerson(answer, analysis.sex).replace(/\byou (had |have |'ve |just )?(told|said|gave|mentioned|prescribed|recommended|wanted|asked|suggested|ordered|started|changed|increased|decreased|referred|sent|put)\b/gi, (_m, aux: string | undefined, v: string) => `I ${(aux ?? '').replace("'ve ", 'have ')}${v}`);
    body = clinicianAsI(body);
    // "How is your right knee?" "It still hurts": the note says what "it" is, since the question is not in the note.
    const about = question && /\bhow(?:'s| is| has| does)\s+(?:your|her|his)\s+([a-z][a-z ]{1,30}?)(?:\s+(?:been|doing|feeling))?\s*\?*$/i.exec(question.text);
    if (about && /^it\b/i.test(body)) body = body.replace(/^it\b/i, `${pronoun.poss} ${about[1].toLowerCase()}`);
    if (!body || body.split(' ').length < 3) continue;
    if (!new RegExp(`^(${pronoun.subj}|the patient|${pronoun.poss}|it|this|that|they|there)\\b`, 'i').test(body)) {
      body = /^(been|had|have|has|was|is|got|started|felt|took|went|noticed|tried)\b/i.test(body) ? `${pronoun.subj} ${body}` : `${pronoun.subj} reports ${body}`;
    }
    body = body.replace(/^(she|he|the patient) (reports|is|has)\b/i, (m) => m);
    const first = paragraphs.at(-1)!.length === 0 && paragraphs.length > 1;
    let text = finishSentence(body);
    // "The patient" opens a paragraph only in place of the subject pronoun (never "The patient it's …").
    if (first && new RegExp(`^${pronoun.subj}\\s+`, 'i').test(body)) text = finishSentence(`The patient ${body.replace(new RegExp(`^${pronoun.subj}\\s+`, 'i'), '')}`);
    paragraphs.at(-1)!.push({ text, src: [s.tid] });
    hpiWords += text.split(' ').length;
    addRos(answer, true, s.tid);
    count++;
  }
  // Symptoms the patient reported past the history's word budget still belong in the review of systems.
  for (const s of analysis.sentences.slice(0, analysis.examStart)) {
    if (s.role !== 'PATIENT' || s.question) continue;
    for (const m of conditionMentions(s)) if (!m.family) addRos(m.surface, !m.negated, s.tid);
  }
  return { hpi: paragraphs.filter((x) => x.length), ros };
}

/**
 * What is left of the patient's "you" is the clinician, who writes the note as "I" (issue 27: no addressed
 * speech): "this was your first available appointment" → "my first …", "needed to see you" → "see me".
 * Spoken idioms with "you" go.
 */
export function clinicianAsI(text: string): string {
  return text
    .replace(/,?\s*\b(?:to tell you the truth|i tell you|mind you|you know what i mean|you see)\b,?/gi, '')
    .replace(/\byour\b/gi, 'my')
    .replace(/\b(see|tell|told|ask|asked|call|called|show|showed|to|with|for|about|from|by|at) you\b/gi, '$1 me')
    .replace(/\byou (?=[a-z]+ed\b|(?:said|told|gave|saw|were|did|do|want|think|thought|know|knew|can|could|would|will|may|might)\b)/gi, 'I ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The chief complaint is a symptom the patient reports, so scribes list it in the review of systems as
 * said, with its side ("Reports right knee pain"), even when the patient never used the lexicon's words.
 */
const TOLD = /\b(?:you|you've)\s+(?:(?:also|then|recently|previously|just)\s+)?(?:had|were|underwent|have had|'ve had|have been|went|saw|started|presented|were found|were diagnosed)\b/i;
const NOT_HISTORY = /\b(?:i want you|i'd like you|let me|let's|going to|gonna|we will|we'll|i will|i'll|tomorrow|next week|can you|could you|if you|hi|hello|hey|tell me|what|why|do you|did you|have you|are you|were you)\b/i;

/** A clinician's statement of what happened to the patient, fit for the history; questions and plans are not. */
export function clinicianHistory(text: string, question: boolean): string | undefined {
  if (question || !TOLD.test(text) || NOT_HISTORY.test(text) || CHITCHAT.test(text)) return undefined;
  const t = stripFiller(text).replace(/^(?:and|so|now|okay|alright|great|perfect|i see|i know)[,.]?\s+/i, '').replace(/\b(?:it looks like|i have that|i see that|looks like)\s+/i, '');
  return t.split(' ').length >= 6 ? t : undefined;
}

export function complaintInReview(ros: HistoryFacts['ros'], cc: string, src: string[]): void {
  const toks = cc.toLowerCase().replace(/^(?:some|a|an|the|complaints? of|her|his|their)\s+/, '').split(/[^a-z0-9']+/).filter(Boolean);
  const [m] = rosMatcher.match(toks);
  // Only the symptom with its side or course: "shortness of breath with chf" is not a review-of-systems item.
  if (!m || !toks.every((t, k) => (k >= m.start && k < m.end) || (k < m.start && /^(right|left|bilateral|lower|upper|chronic|acute|worsening|severe|mild)$/.test(t)))) return;
  const term = ROS_DISPLAY[m.term] ?? m.term;
  const said = [...toks.slice(0, m.start), term].join(' ');
  const entry = ros.get(m.id) ?? { pos: new Set<string>(), neg: new Set<string>(), src: new Set<string>() };
  if (entry.neg.has(m.term) || [...entry.pos].some((t) => t.includes(said))) return;
  for (const t of entry.pos) if (said.includes(t)) entry.pos.delete(t);
  entry.pos = new Set([said, ...entry.pos]);
  for (const id of src) entry.src.add(id);
  ros.set(m.id, entry);
}

// A reason that names a kind of visit ("Diabetes follow-up", "annual physical") is the visit, not something evaluated.
const VISIT_KIND = /\b(?:follow-?\s?up|check-?\s?up|visit|physical|appointment|recheck|review|consultation|consult)$/i;
function forReason(reason: string): string {
  const r = reason.trim().replace(/[.]+$/, '').toLowerCase();
  if (VISIT_KIND.test(r)) return `for ${/^[aeiou]/.test(r) ? 'an' : 'a'} ${r}`;
  // "Follow-up of blood pressure and diabetes" is already what the visit is for, not "the evaluation of follow-up of …".
  return /^follow[- ]?ups?\b/.test(r) ? `for ${r}` : `for the evaluation of ${r}`;
}

export function openingSentence(ctx: NoteContext, problem: string | undefined): Piece | undefined {
  const { analysis } = ctx;
  const sex = analysis.sex === 'female' ? 'female' : analysis.sex === 'male' ? 'male' : 'patient';
  // Not said in the visit, the age is the one the visit's birth date gives on the day the note is written.
  const age = analysis.age ?? ageOn(ctx.req.patient?.dob, new Date());
  const who = age ? `a ${age}-year-old ${sex}` : sex === 'patient' ? '' : `a ${sex}`;
  const reason = ctx.req.visit?.reason_for_visit ?? ctx.req.visit?.chief_complaint ?? problem;
  if (!who && !reason) return undefined;
  const subject = analysis.name ? capitalize(analysis.name) : 'The patient';
  const pmh = ctx.pmh?.length ? ` with a past medical history significant for ${listJoin(ctx.pmh)}` : '';
  const text = who
    ? `${subject} is ${who}${pmh} who presents to the clinic today${reason ? ` ${forReason(reason)}` : ''}.`
    : `${subject} presents to the clinic today ${forReason(reason!)}.`;
  return { text, src: [], template: true };
}

/** Whole years from a birth date (YYYY-MM-DD) to a day; undefined for no date, an unreadable one or one after the day. */
export function ageOn(dob: string | undefined, day: Date): number | undefined {
  const m = dob ? /^(\d{4})-(\d{2})-(\d{2})/.exec(dob) : null;
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const years = day.getUTCFullYear() - y - (day.getUTCMonth() + 1 < mo || (day.getUTCMonth() + 1 === mo && day.getUTCDate() < d) ? 1 : 0);
  return years >= 0 && years < 130 ? years : undefined;
}

export function listJoin(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}
