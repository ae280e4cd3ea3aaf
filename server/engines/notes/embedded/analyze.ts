import type { TranscriptLine } from '../types';
import { cleanUtterance, splitRunOn, splitSentences, wordsToDigits, type Sex } from './text';
import { conditionMatcher, drugMatcher, tokenize, type Match } from './lexicon';
import { isFirstName, sexOfFirstName } from './names';
import { stripSmallTalk } from './written';
import { markAllergies } from './mark-allergies';
import { mayComeOrRuledOut, namedAsRisk, notPresentSaid, setAside } from './not-present';
import { FAMILY, ownClause, someoneElses } from './whose';
export type { Role, Sentence, Turn } from './sentence-types';
import type { Role, Sentence, Turn } from './sentence-types';
export interface Analysis {
  turns: Turn[];
  sentences: Sentence[];
  sex: Sex;
  age?: number;
  name?: string;
  /** First sentence index of the examination and of the assessment/plan talk. */
  examStart: number;
  planStart: number;
  swapped: boolean;
  /** Ingredients the visit states the patient is allergic to: never a medication taken or ordered, wherever named. */
  allergens: Set<string>;
}

const CLINICIAN_CUES =
  /\b(let me|i'm going to|i am going to|i want you to|i'd like to|i would like to|prescribe|examine|exam|take a deep breath|any (pain|fever|chest|shortness|nausea|questions)|do you have|have you (had|been|noticed|tried)|are you (having|taking|still)|how long|tell me|we'll|we will|order|refer|your (heart|lungs|blood pressure|x-ray|labs|results|knee|back)|diagnosis|impression|follow up|come back|nurse)\b/gi;
const PATIENT_CUES =
  /\b(my|i've been|i have been|i feel|it hurts|it's been|i was|i don't know|i think so|doctor|doc|i noticed|i started|i take|i've had|thank you)\b/gi;

function cueScore(text: string, re: RegExp): number {
  return text.match(re)?.length ?? 0;
}

const QUESTION_START =
  /^(?:(?:okay|ok|alright|all right|and|so|now|well|good|great|yeah|right|but|also|then)[, ]+)*(do|does|did|are|is|have|has|any|how|what|when|where|which|who|why|can|could|would|were|was|will|should|you have (?:any|anything|ever|had (?:any|anything|a history)|been|noticed|a history)|you're|anything|ever|no |still (?:taking|on|using|having|getting))\b/i;

// "What I think we're dealing with is …", "which I expect …": a clause the speaker answers, not a question.
const STATED_WH = /^(?:(?:okay|ok|alright|all right|and|so|now|well|good|great|yeah|right|but|also|then)[, ]+)*(?:what|which) (?:i|we|i'm|we're|i'd|we'd|i'll|we'll)\b/i;
// "It showed some mitral regurgitation, okay?": a statement with a tag asking the patient to follow, not a question.
const TAG = /,\s*(?:okay|ok|right|alright|all right|correct)\s*\?\s*$/i;

function isQuestion(s: string, role: Role): boolean {
  if (TAG.test(s)) {
    const head = s.replace(TAG, '');
    return /\?/.test(head) || (QUESTION_START.test(head) && !STATED_WH.test(head));
  }
  if (/\?\s*$/.test(s)) return true;
  // "You have been having headaches, so we will get an MRI": said as what the plan follows from, it asks nothing.
  return role === 'CLINICIAN' && QUESTION_START.test(s) && !STATED_WH.test(s) && s.split(/\s+/).length < 25 && !/^(?:(?:okay|ok|so|and|now|well)[, ]+)*(?:you have (?:been|had|noticed)|you're|you are)\b.*\bso (?:(?:we|i)(?:'ll| will| are going to|'re going to|'m going to| am going to)|let's|(?:start|take|try|drink|keep|continue|use|stop|avoid|cut))\b/i.test(s);
}

/**
 * Speaker tags from diarisation can be swapped; the clinician asks, examines and orders. When the
 * side tagged PATIENT talks much more like a clinician than the side tagged CLINICIAN, swap them.
 * UNKNOWN turns are attributed one by one.
 */
export function inferRoles(lines: TranscriptLine[]): { roles: Role[]; swapped: boolean } {
  const agg = { CLINICIAN: { c: 0, p: 0 }, PATIENT: { c: 0, p: 0 } };
  for (const l of lines) {
    if (l.speaker === 'UNKNOWN') continue;
    agg[l.speaker].c += cueScore(l.text, CLINICIAN_CUES);
    agg[l.speaker].p += cueScore(l.text, PATIENT_CUES);
  }
  const ratio = (x: { c: number; p: number }) => (x.c + 1) / (x.p + 1);
  const hasBoth = lines.some((l) => l.speaker === 'CLINICIAN') && lines.some((l) => l.speaker === 'PATIENT');
  const swapped = hasBoth && ratio(agg.PATIENT) > ratio(agg.CLINICIAN) * 1.5 && agg.PATIENT.c >= 3;
  const roles = lines.map((l): Role => {
    if (l.speaker === 'UNKNOWN') return cueScore(l.text, CLINICIAN_CUES) > cueScore(l.text, PATIENT_CUES) ? 'CLINICIAN' : 'PATIENT';
    if (swapped) return l.speaker === 'CLINICIAN' ? 'PATIENT' : 'CLINICIAN';
    return l.speaker;
  });
  return { roles, swapped };
}

const EXAM_CUE =
  /\b(physical exam|physical examination|examine you|examining|exam(?:ine)? (?:your|you|him|her)|on exam|let me (?:take a look|listen|check|feel|look)|(?:i'm|i am) (?:going to|just going to) (?:listen|take a look|press|feel|check|examine|look)|listen to your (?:heart|lungs)|your (?:heart|lungs) (?:sound|sounds|are|is)|vital signs|vitals|your (?:feet|foot|skin|throat|ears|eyes|abdomen|belly|knees?|ankles?|legs?|wounds?|incision) (?:looks?|feels?|are|is) (?:good|fine|normal|okay|great|clear|healthy))\b/i;
const PLAN_CUE =
  /\b(my impression|assessment|my plan|the plan|plan is|for your (?:first|second|next|last)? ?problem|next problem|first problem|i think (?:you have|that you have|this is|it's|you've|that this|your [a-z0-9]+(?: [a-z0-9]+){0,3} (?:is|are) (?:not |now |still )?(?:well |poorly |under )?(?:controlled|uncontrolled|stable|improving|worse|worsening|better))|my diagnosis|diagnosis is|(?:i'm|i am) going to (?:prescribe|order|refer|start|put you)|what i(?:'d| would) like to do|what we(?:'re| are) going to do|i want to (?:start|prescribe|order)|let's talk about (?:my|the|what)|let's talk (?:a (?:little )?bit )?about your plan|in terms of (?:my|the) plan|so for (?:your|the)|your [a-z0-9]+(?: [a-z0-9]+){0,3} (?:is|are) not (?:well )?controlled)\b/i;

/**
 * Recognisers emit no punctuation, so "you have hypertension are you taking metformin …" arrives as one
 * sentence; a new question ("are you …", "do you …") starts a new sentence there, as a full stop would.
 * Not after a word that makes it part of the clause: "we're gonna have you apply ice" orders, it asks nothing.
 */
export function splitUnpunctuated(text: string): string[] {
  if (/[.?!,]/.test(text)) return [text];
  return text
    .split(/\s+(?<!\b(?:what|how|why|where|when|which|who|that|if|whether|and|but|or|so|can|could|would|should|will|do|did|are|were|have|to|let's|let|we|i|we'll|i'll|me|make|not|then|since|because|as|see|gonna|wanna)\s+)(?=(?:are|do|did|have|were|is|can) you\b)/i)
    .map((x) => x.trim())
    .filter(Boolean);
}

const GREETING = /^(?:hi|hello|hey|good (?:morning|afternoon|evening))(?:,?\s+(?!i\b|we\b)[a-z]+)?[,.!]\s+|^(?:hi|hello|hey|good (?:morning|afternoon|evening))\s+(?=(?:i am|i'm|my name is)\b)/i;
const INTRODUCTION = /^(?:i am|i'm|my name is|this is) (?:doctor |dr\.? )(?:[a-z]+|UNCLEARSPAN)[,.!]?\s+/i;
const INTRODUCTION_AFTER_GREETING = /^(?:i am|i'm|my name is) (?:[a-z]+|UNCLEARSPAN)[,.!]?\s+(?=(?:we|i|so|let's|you)\b)/i;

/**
 * "Hi, I am doctor Patel, we are following up on your blood pressure" → "we are following up on your blood
 * pressure": greetings and introductions go nowhere in the note (issue 27); what follows them may.
 */
export function stripGreeting(text: string): string {
  const greeted = text.replace(GREETING, '');
  let t = greeted.replace(INTRODUCTION, '');
  if (greeted !== text && t === greeted) t = greeted.replace(INTRODUCTION_AFTER_GREETING, '');
  return t !== text && t.split(/\s+/).length >= 3 ? t : text;
}

export function analyze(lines: TranscriptLine[], hintSex?: string): Analysis {
  const { roles, swapped } = inferRoles(lines);
  const turns: Turn[] = [];
  const sentences: Sentence[] = [];
  // Small talk reaches no section, but it still takes its place in the visit: where the exam and the plan begin is
  // judged by each sentence's place among everything said (`said[i]`), as before small talk was cut.
  let smallTalk = 0;
  const said: number[] = [];
  lines.forEach((l, index) => {
    const role = roles[index];
    const text = cleanUtterance(l.text);
    const turn: Turn = { index, tid: l.transcriptId, role, text, sentences: [] };
    for (const raw of splitSentences(text))
      for (const piece of splitRunOn(raw).flatMap(splitUnpunctuated)) {
        const t = stripSmallTalk(stripGreeting(wordsToDigits(piece.replace(/(\d),(\d{3})\b/g, '$1$2')).replace(/\b(\d+)\s+over\s+(\d+)\b/gi, '$1/$2')));
        if (!t.trim()) {
          smallTalk++;
          continue;
        }
        said.push(sentences.length + smallTalk);
        const s: Sentence = { i: sentences.length, turn: index, tid: l.transcriptId, role, text: t, tokens: tokenize(t), question: isQuestion(t, role) };
        sentences.push(s);
        turn.sentences.push(s);
      }
    turns.push(turn);
  });

  const allergens = markAllergies(turns);

  // Sex: stated demographics, then how the clinician refers to the patient, then honorifics.
  let sex: Sex = /^f/i.test(hintSex ?? '') ? 'female' : /^m/i.test(hintSex ?? '') ? 'male' : undefined;
  let strongSex = !!sex;
  const all = turns.map((t) => t.text).join(' ').toLowerCase();
  if (!sex) {
    // Honorifics are strong evidence; pronouns also refer to family members, so they count once each.
    const f = (all.match(/\b(female|woman|she|her|girl|lady|pregnant)\b/g) ?? []).length + 3 * (all.match(/\b(mrs|ms|miss|ma'am)\b/g) ?? []).length;
    const m = (all.match(/\b(male|man|he|his|him|gentleman|guy|boy|prostate)\b/g) ?? []).length + 3 * (all.match(/\b(mr|sir)\b/g) ?? []).length;
    const stated = /\b\d+[- ]year[- ]old (female|woman|male|man|gentleman|lady)\b/.exec(all)?.[1];
    strongSex = !!stated || /\b(mrs|ms|miss|ma'am|mr|sir)\b/.test(all);
    if (stated) sex = /female|woman|lady/.test(stated) ? 'female' : 'male';
    else if (f + m >= 2) sex = f >= m ? 'female' : 'male';
  }
  const ageMatch = /\b(\d{1,3})[- ]years?[- ]old\b/.exec(wordsToDigits(all)) ?? /\bage (?:of )?(\d{1,3})\b/.exec(wordsToDigits(all));
  const age = ageMatch ? Number(ageMatch[1]) : undefined;
  const opening = turns.find((t) => t.role === 'CLINICIAN')?.text.toLowerCase() ?? '';
  // A clinician opens with the patient's name: "hi, martha", "okay hi andrea", or after a discourse word ("so sophia i see …").
  const addressed = /^(?:(?:so|okay|ok|alright|all right|well)[, ]+)*([a-z]+)\b/.exec(opening);
  const nameMatch =
    /\b(?:mr|mrs|ms|miss)\.? ([a-z]+)/.exec(all) ??
    /^(?:(?:so|okay|ok|alright|all right|well)[, ]+)*(?:(?:hi|hello|hey|good (?:morning|afternoon|evening))[, ]+)+([a-z]+)\b/.exec(opening) ??
    (addressed && isFirstName(addressed[1]) ? addressed : null);
  const honorific = /\b(mr|mrs|ms|miss)\.? [a-z]+/.exec(all)?.[1];
  const cap = (w: string) => w.replace(/^./, (c) => c.toUpperCase());
  const name =
    nameMatch && !/^(there|doctor|doc|how|so|good|nice|dragon|again|everyone|everybody|guys|folks|what|who|it|i|is|are|and|welcome|come|please|thanks|unclearspan|we|you|they|he|she|us|me|my|your|our|this|that|the|let|let's|thank|today|sir|ma'am|all|nurse)$/.test(nameMatch[1])
      ? (honorific && all.includes(`${honorific}. ${nameMatch[1]}`)) || (honorific && all.includes(`${honorific} ${nameMatch[1]}`))
        ? `${cap(honorific)}. ${cap(nameMatch[1])}`
        : cap(nameMatch[1])
      : undefined;
  // A first name that is only ever one sex outweighs pronoun counts, which also count family members.
  const byName = strongSex ? undefined : sexOfFirstName(name?.replace(/^(mr|mrs|ms|miss)\. /i, ''));
  if (byName) sex = byName;

  const clin = sentences.filter((s) => s.role === 'CLINICIAN');
  const examS = clin.find((s) => said[s.i] > 2 && EXAM_CUE.test(s.text));
  let examStart = examS?.i ?? sentences.length;
  // (issue 27: counted without the cut greeting, "I think this is acute bronchitis" fell before the plan, and out of the coded data.)
  const spoken = sentences.length + smallTalk;
  const examAt = examS ? said[examS.i] : spoken;
  const planS = clin.find((s) => said[s.i] > Math.min(examAt, spoken * 0.4) && PLAN_CUE.test(s.text));
  // With no plan cue, the plan is guessed to follow the examination's first half, never to start inside it.
  const fallbackAt = examS ? Math.max(Math.floor(spoken * 0.75), examAt + Math.floor((spoken - examAt) / 2)) : Math.floor(spoken * 0.75);
  const fallback = sentences.findIndex((s) => said[s.i] >= fallbackAt);
  let planStart = planS?.i ?? (fallback < 0 ? sentences.length : fallback);
  if (examStart > planStart) examStart = planStart;
  if (planStart < examStart) planStart = examStart;
  return { turns, sentences, sex, age, name, examStart, planStart, swapped, allergens };
}

const NEG_BEFORE = /\b(no|not|denies|deny|denied|without|negative|never|nor|free|rule|ruled|r\/o|none|neither|don't|doesn't|didn't|haven't|hasn't|wasn't|isn't|aren't)\b/;

export interface ConditionMention extends Match {
  code: string;
  negated: boolean;
  family: boolean;
  sentence: Sentence;
  surface: string;
  /** Said as a raised measure ("your blood pressure is high"), not named: a problem only when a drug for it manages it. */
  byMeasure?: boolean;
}

/** Condition mentions with negation and family-history context; laterality said before the term refines the code. */
/** "pain in my right knee" → "right knee pain", the order the lexicon (and scribes) use. */
export function canonicalTokens(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if ((tokens[i] === 'pain' || tokens[i] === 'swelling' || tokens[i] === 'weakness' || tokens[i] === 'numbness') && tokens[i + 1] === 'in') {
      let j = i + 2;
      if (/^(my|the|her|his|your|their|both)$/.test(tokens[j] ?? '')) j++;
      const side = /^(right|left)$/.test(tokens[j] ?? '') ? tokens[j++] : undefined;
      const part = tokens[j];
      if (part && /^(knee|knees|shoulder|hip|ankle|back|neck|wrist|elbow|hand|foot|leg|legs|arm|chest|abdomen|stomach|belly|head|joints)$/.test(part)) {
        out.push(...(side ? [side] : []), part.replace(/s$/, '') === 'leg' ? 'leg' : part, tokens[i]);
        i = j;
        continue;
      }
    }
    out.push(tokens[i]);
  }
  return out;
}

/**
 * Words the lexicon knows that name something else here: "cva tenderness" (at the flank) is the costovertebral angle,
 * not a stroke; "marrow edema" or "macular edema" is a finding in that tissue, not swelling of the limbs (R60).
 * "Allergies" after a drug or kind ("penicillin allergies", "no known allergies") or with the chart's list a few words away
 * ("on file", "noted your allergies") are allergies to substances (allergies.ts), not rhinitis ("a little bit of allergies").
 */
const CHART_LIST = /\b(?:on file|in (?:the|your) chart|noted|allergy list|reconcil(?:e|ed|ing)|updat(?:e|ed|ing))\b/;
function notTheCondition(tokens: string[], m: Match): boolean {
  if (m.term === 'allergies') {
    const kind = /^(?:drugs?|medication|medicine|food|known|latex|sulfa|contrast|iodine|peanut|nut|shellfish|bee|antibiotic)$/;
    if (drugMatcher.match(tokens).some((d) => d.end === m.start) || kind.test(tokens[m.start - 1] ?? '')) return true;
    return CHART_LIST.test(tokens.slice(Math.max(0, m.start - 4), m.end + 4).join(' '));
  }
  if (m.term === 'cva') return tokens.slice(Math.max(0, m.start - 3), m.end + 2).some((t) => /^tender(?:ness)?$/.test(t)) || tokens.includes('flank') || tokens.includes('costovertebral');
  if (m.term === 'edema') return /^(?:marrow|macular|cerebral|pulmonary|bone)$/.test(tokens[m.start - 1] ?? '');
  return false;
}

// "All right, so your knee osteoarthritis", "right now your knee", "that's right", "right, you have carpal tunnel": "right" as
// a word of talk, not a side; "left to itself", "you left": "left" as a verb.
const notASide = (tokens: string[], k: number) =>
  (tokens[k] === 'right' && (/^(?:all|that's|thats|you're|alright)$/.test(tokens[k - 1] ?? '') || /^(?:now|away|here|there|after|before|then|so|you|i|we|okay|ok|it|this|that|well|yes|yeah|about|when|at)$/.test(tokens[k + 1] ?? ''))) ||
  (tokens[k] === 'left' && (/^(?:you|i|we|he|she|they|have|has|had|was|were|be|been|is|are)$/.test(tokens[k - 1] ?? '') || /^(?:to|over|off|alone|out|behind|it|untreated|unchecked)$/.test(tokens[k + 1] ?? '')));

/** With `measured`, also a blood pressure or cholesterol said to be raised or treated (`byMeasure`), which only managed.ts and evidence use. */
export function conditionMentions(s: Sentence, opts: { measured?: boolean } = {}): ConditionMention[] {
  const out: ConditionMention[] = [];
  if (s.allergy) return out;
  const tokens = canonicalTokens(s.tokens);
  if (tokens.length !== s.tokens.length) s = { ...s, tokens };
  for (const m of conditionMatcher.match(s.tokens)) {
    if (notTheCondition(s.tokens, m)) continue;
    let code = m.id;
    let start = m.start;
    // Laterality said before the term ("right knee pain") or just after it ("knee pain on the left side").
    const after = /^(?:on|in) (?:the|my|your|her|his) (right|left)\b|^(?:of|in) (?:the|my|your|her|his|both) (right|left|bilateral)\b/.exec(s.tokens.slice(m.end, m.end + 4).join(' '));
    const sideAt = [...s.tokens.keys()].slice(Math.max(0, m.start - 3), m.start).find((k) => /^(?:right|left|bilateral)$/.test(s.tokens[k]) && !notASide(s.tokens, k));
    const side = (sideAt === undefined ? undefined : s.tokens[sideAt]) ?? (after ? after[1] ?? after[2] : undefined);
    if (side && !/^(right|left|bilateral)\b/.test(m.term)) {
      const lat = conditionMatcher.match(tokenize(`${side} ${m.term}`))[0];
      if (lat && lat.start === 0 && lat.end === tokenize(`${side} ${m.term}`).length) {
        code = lat.id;
        const at = s.tokens.lastIndexOf(side, m.start);
        if (at >= 0) start = at;
      }
    }
    // A chronic skin ulcer said to be on the foot is a foot ulcer (L97.5), not an ulcer of unspecified skin (L98.4):
    // "a nonhealing ulcer of your right foot", "non-healing ulcer, right foot".
    const onFoot = /^L98\.4/.test(code) && /^(?:(?:of|on|in) (?:the |my |your |his |her )?)?(?:(right|left) )?(?:foot|heel|toe|big toe)\b/.exec(s.tokens.slice(m.end, m.end + 5).join(' '));
    if (onFoot) code = onFoot[1] === 'right' ? 'L97.519' : onFoot[1] === 'left' ? 'L97.529' : 'L97.509';
    const window = ownClause(s.tokens.slice(Math.max(0, start - 5), start).join(' '));
    // "but" cancels a negation said before it ("no fever but chills"), not one said after it ("but no fever").
    const lastNeg = Math.max(-1, ...[...window.matchAll(new RegExp(NEG_BEFORE.source, 'g'))].map((x) => x.index));
    const cancelled = [...window.matchAll(/\b(?:no longer|not sure|not only|but)\b/g)].some((x) => x.index >= lastNeg);
    // "no" right before a list ("no fever, chills or cough") negates the whole list.
    // Clinicians rule things out at a distance: "I don't think this is a sign of a stroke".
    const wide = ownClause(s.tokens.slice(Math.max(0, start - 10), start).join(' '));
    const negated =
      (lastNeg >= 0 && !cancelled) ||
      /\b(don't think|do not think|doesn't look like|does not look like|not concerned|rule out|ruled out|no signs? of|no evidence of|unlikely|not seeing|don't see|do not see|no reason to (?:think|believe|suspect|suggest)|clear for|cleared for|doubt|doubtful)\b/.test(wide) ||
      namedAsRisk(s.tokens, start) ||
      setAside(s.tokens, start, m.end) ||
      notPresentSaid(s.tokens, start, m.end) ||
      mayComeOrRuledOut(s.tokens, start, m.end);
    const prev = out.at(-1);
    const between = prev ? s.tokens.slice(prev.end, start) : [];
    // A negated list runs on ("not had any weight loss or gain, headaches"), not across an owner, a preposition or a new subject.
    const listNegated = !!prev?.negated && between.length <= 4 && !between.some((t) => /^(but|although|though|however|except|yes|your|my|his|her|their|with|because|since|from|you|you've|you're|he|she|they|this|it)$/.test(t));
    const family = someoneElses(s, start, m.end);
    out.push({ ...m, code, start, negated: negated || listNegated, family, sentence: s, surface: s.tokens.slice(start, m.end).join(' ') });
  }
  if (opts.measured) out.push(...raisedPressure(s, out), ...treatedCholesterol(s, out));
  // "You've got some arthritis in there, we call this hallux rigidus": the name given is the condition just described.
  for (let k = 1; k < out.length; k++) {
    const named = /\b(?:call (?:this|it|that)|called|known as)$/.test(s.tokens.slice(out[k - 1].end, out[k].start).join(' '));
    if (named && !out[k].negated && out[k].start - out[k - 1].end <= 6) out[k - 1] = { ...out[k - 1], code: out[k].code };
  }
  return out;
}

// "your blood pressure is also high", "blood pressures have been running higher", "blood pressure is not well controlled",
// "my blood pressure readings at home have been high":
// the pressure said to be raised is hypertension (I10), as "high blood pressure" is; a reading alone ("150/92") is not,
// a reading said to be high is ("your blood pressure today is 152/94 which is still high").
// So is a treatment "for your blood pressure" (managed.ts keeps it only when the drug is one for hypertension).
const RAISED_PRESSURE =
  /\bblood pressures? (?:(?:readings?|numbers?|measurements?|at home|lately|recently)\s+){0,3}(?:(?:is|are|was|were|has been|have been|'s|remains?|stays?|keeps?)\s+)(?:(?:also|still|again|a (?:little|bit|little bit)|quite|too|very|really|pretty|slightly|somewhat|definitely|consistently|running|been|going)\s+)*(?:high|higher|elevated|up|uncontrolled|not (?:well |very well |as well )?controlled|poorly controlled)\b|\bblood pressures? (?:(?:today|here|now|this morning|in (?:the )?(?:office|clinic))\s+)?(?:is|was|'s) \d+\/\d+ (?:(?:mmhg|millimeters of mercury)\s+)?(?:which|and that|that|and) (?:is|'s) (?:(?:also|still|again|a (?:little|bit|little bit)|quite|too|very|really|pretty|slightly|somewhat|definitely)\s+)*(?:high|elevated|up|uncontrolled)\b|\bfor (?:your|my|the|his|her|their) blood pressures?\b/g;

function raisedPressure(s: Sentence, found: ConditionMention[]): ConditionMention[] {
  const out: ConditionMention[] = [];
  const lower = s.tokens.join(' ');
  for (const hit of lower.matchAll(RAISED_PRESSURE)) {
    const start = lower.slice(0, hit.index).split(' ').length - 1;
    const end = start + hit[0].split(' ').length;
    if (found.some((m) => m.start < end && start < m.end)) continue;
    // Its own clause decides: "not" said of another condition before it ("diabetes is not well controlled and your
    // blood pressure is high") does not deny it; "I don't think your blood pressure is high" does.
    const negated = /\b(?:don't|do not|doesn't|does not) think (?:that )?(?:your |the |his |her |my )?$/.test(s.tokens.slice(Math.max(0, start - 6), start).join(' ') + ' ');
    const family = FAMILY.test(s.tokens.slice(Math.max(0, start - 8), start).join(' '));
    out.push({ id: 'I10', term: 'elevated blood pressure', start, end, code: 'I10', negated, family, sentence: s, surface: s.tokens.slice(start, end).join(' '), byMeasure: true });
  }
  return out;
}

// "here for your asthma and your cholesterol", "following up on your cholesterol", "atorvastatin for your cholesterol",
// "your cholesterol is still high": cholesterol the visit manages or says is raised is hyperlipidemia (E78.5), as "high
// cholesterol" is, but only when a drug for it is ordered or taken (managed.ts). Cholesterol as a test ("check your
// cholesterol", "fasting for your cholesterol test", "your cholesterol level was 180") is no condition.
const CHOLESTEROL =
  /\b(?:(?:here (?:today )?|follow(?:ing)?(?: |-)up (?:on )?|(?<!\b(?:fast|fasting|test|testing|screen|screening|check|checking|labs?|blood work|bloodwork) )))for (?:your|my|the|his|her|their) (?:(?:\w+|\w+ \w+) and (?:your|my|the|his|her|their) )?cholesterol\b(?! (?:checks?|tests?|levels?|panels?|screen\w*|labs?|numbers?|results?|medicines?|medications?|pills?))|\bfollow(?:ing)?(?: |-)up on (?:your|my|the|his|her|their) cholesterol\b(?! (?:checks?|tests?|levels?|panels?|labs?|numbers?|results?))|\bcholesterol (?:(?:is|was|has been|'s|remains?|stays?)\s+)(?:(?:still|also|again|a (?:little|bit|little bit)|quite|too|very|really|pretty|slightly|somewhat|running)\s+)*(?:high|elevated|up|uncontrolled|not (?:well |very well )?controlled|poorly controlled)\b/g;

function treatedCholesterol(s: Sentence, found: ConditionMention[]): ConditionMention[] {
  const out: ConditionMention[] = [];
  const lower = s.tokens.join(' ');
  for (const hit of lower.matchAll(CHOLESTEROL)) {
    const end = lower.slice(0, hit.index + hit[0].length).split(' ').length;
    // The mention is "cholesterol", or the "for your …" that says what is treated (as managed.ts reads "for your blood pressure").
    const from = hit[0].startsWith('cholesterol') ? hit.index : hit.index + hit[0].search(/\bfor\b|\bcholesterol\b/);
    const start = lower.slice(0, from).split(' ').length - 1;
    // "here for your asthma and your cholesterol": only the cholesterol's own word must be free of another mention.
    const word = s.tokens.indexOf('cholesterol', start);
    if (found.some((m) => m.start <= word && word < m.end)) continue;
    const negated = /\b(?:don't|do not|doesn't|does not) think (?:that )?(?:your |the |his |her |my )?$/.test(s.tokens.slice(Math.max(0, start - 6), start).join(' ') + ' ');
    const family = FAMILY.test(s.tokens.slice(Math.max(0, start - 8), start).join(' '));
    out.push({ id: 'E78.5', term: 'cholesterol', start, end, code: 'E78.5', negated, family, sentence: s, surface: s.tokens.slice(start, end).join(' '), byMeasure: true });
  }
  return out;
}

export const YES = /^(yes|yeah|yep|yup|uh-huh|i do|i have|i am|i did|i was|sometimes|a little|a bit|correct|right|definitely|absolutely|sure|it does|it is|they do|occasionally|kind of|mm-hmm|affirmative)\b/i;
export const NO = /^(no|nope|nah|not really|not that i|never|none|i don't|i do not|i haven't|i have not|i didn't|i'm not|i am not|not at all|negative|nothing)\b/i;
