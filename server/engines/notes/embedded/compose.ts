import type { CodeIndex, HccModel } from '@/server/codesets/index';
import type { Diagnosis, MedicationOrder, NoteRequest } from '../types';
import { NO, YES, conditionMentions, type Analysis, type ConditionMention, type Sentence } from './analyze';
import { CONCEPT_NAME, rosMatcher, tokenize } from './lexicon';
import { findDrugs, isCompleteOrder, parseOrder } from './meds';
import { capitalize, clinicianToNote, finishSentence, pronouns, removeDisfluencies, toThirdPerson } from './text';
import { STATUS } from './vocab';

export interface Piece { text: string; src: string[] }
export interface Block { label?: string; pieces: Piece[]; para?: boolean; bullet?: boolean; heading?: string }
export type Verbosity = NoteRequest['preferences']['verbosity'];

const FILLER_START = /^(?:(?:okay|ok|alright|all right|so|well|yeah|yes|yep|um|uh|and|but|oh|you know|like|now|right|sure|great|good|perfect|mm|wow|gosh|my gosh|no|actually|honestly|basically)[,.!]?\s+)+/i;
const CHITCHAT = /\b(how are you|nice to (?:meet|see)|thank you|thanks|good morning|good afternoon|weather|weekend|vacation|hey dragon|dragon|the nurse|any questions|sounds good|that's great|i'm glad|see you|have a good|take care|bye)\b/i;
const CLINICAL =
  /\b(pain|hurt|hurts|ache|aching|sore|swell|swelling|swollen|feel|feeling|felt|medication|medicine|pill|pills|doctor|hospital|surgery|emergency|er|blood|sugar|sugars|pressure|sleep|sleeping|eat|eating|diet|exercise|walk|walking|work|taking|take|took|started|start|worse|better|help|helped|helps|weeks?|days?|months?|years?|ago|since|morning|night|tried|try|notice|noticed|symptoms?|numb|tingling|dizzy|tired|weight|pounds|fell|fall|injur|twist|pop|lift|running|bend|stairs|therapy|appointment|smok|drink|alcohol|cough|breath|breathing|fever|vomit|nause|diarrh|rash|itch|stress|anxious|depress|mood)\w*/i;

function stripFiller(s: string): string {
  return removeDisfluencies(s.replace(FILLER_START, '')).replace(FILLER_START, '').trim();
}

const QUESTION_LEADS: RegExp[] = [
  /^(?:do|did|have|are|were) you (?:have|had|having|been having|ever had|experience|experienced|experiencing|notice|noticed|noticing|get|getting|feel|feeling|see|seen|develop|developed)\s+(?:any\s+|a\s+|an\s+)?(.+)$/i,
  /^(?:any|anything like|any other)\s+(.+)$/i,
  /^(?:have you had|has there been|is there|are there|was there)\s+(?:any\s+)?(.+)$/i,
  /^(?:does it|did it|is it|does that|did that|is that)\s+(.+)$/i,
  /^(?:are you|were you)\s+(.+)$/i,
];

/** "any chest pain or shortness of breath" → "chest pain or shortness of breath". */
export function questionTopic(q: string): string | null {
  let t = stripFiller(q.replace(/[?.!]+$/, '')).toLowerCase();
  t = t.replace(/^(?:and|so|now|okay|also|then|but)\s+/g, '');
  for (const re of QUESTION_LEADS) {
    const m = re.exec(t);
    if (m) {
      const topic = m[1].replace(/\b(at all|recently|lately|today|right now|or anything( like that)?|anything like that|or not)\b/g, '').replace(/\s+/g, ' ').trim();
      if (topic && topic.split(' ').length <= 10) return topic;
    }
  }
  return null;
}

export interface NoteContext {
  a: Analysis;
  req: NoteRequest;
  codes: CodeIndex;
  model: HccModel;
  verbosity: Verbosity;
  /** Chronic conditions named in the one-liner ("past medical history significant for …"). */
  pmh?: string[];
}

function subj(ctx: NoteContext) {
  return pronouns(ctx.a.sex);
}

/** Previous clinician question for a patient turn: the yes/no questions that patient answers resolve. */
function priorQuestion(ctx: NoteContext, s: Sentence): Sentence | undefined {
  const prevTurn = ctx.a.turns[s.turn - 1];
  if (!prevTurn || prevTurn.role !== 'CLINICIAN') return undefined;
  const last = prevTurn.sentences.at(-1);
  return last?.question ? last : undefined;
}

// ---------------------------------------------------------------------------------------------
// History of present illness, review of systems
// ---------------------------------------------------------------------------------------------

export interface HistoryFacts { hpi: Piece[][]; ros: Map<string, { pos: Set<string>; neg: Set<string>; src: Set<string> }> }

export function historyFacts(ctx: NoteContext): HistoryFacts {
  const { a } = ctx;
  const p = subj(ctx);
  const S = capitalize(p.subj);
  const paragraphs: Piece[][] = [[]];
  const ros: HistoryFacts['ros'] = new Map();
  const ROS_DISPLAY: Record<string, string> = { tired: 'fatigue', tiredness: 'fatigue', lightheaded: 'lightheadedness', dizzy: 'dizziness', 'chest pains': 'chest pain', coughing: 'cough', 'short of breath': 'shortness of breath', rashes: 'rash' };
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
  for (const s of a.sentences.slice(0, a.examStart)) {
    if (count >= limit || hpiWords >= wordBudget) break;
    if (s.role === 'CLINICIAN') {
      // Clinicians of the dictating style state the one-liner themselves ("… is a 50-year-old female …").
      if (/\b\d+[- ]year[- ]old\b/.test(s.text) && !s.question) {
        const t = finishSentence(clinicianToNote(stripFiller(s.text), a.sex).replace(/^.*?(\b[a-z]+ is a \d+)/i, '$1'));
        paragraphs[0].unshift({ text: t, src: [s.tid] });
      }
      const topic = /\b(?:in terms of|regarding|how about|what about|as far as|how are you doing with|how's|how is) (?:your|the) ([a-z0-9' -]{3,40})/i.exec(s.text);
      if (topic && conditionMentions(s).length && s.turn !== lastTopicTurn && paragraphs.at(-1)!.length) {
        paragraphs.push([]);
        lastTopicTurn = s.turn;
      }
      continue;
    }
    if (CHITCHAT.test(s.text) && !CLINICAL.test(s.text.replace(CHITCHAT, ''))) continue;
    const q = priorQuestion(ctx, s);
    const answer = stripFiller(s.text);
    const topic = q ? questionTopic(q.text) : null;
    const words = s.text.replace(/[^a-z0-9' ]/gi, ' ').trim().split(/\s+/);
    const src = q ? [q.tid, s.tid] : [s.tid];
    if (topic && s === a.turns[s.turn].sentences[0]) {
      const topicNote = clinicianToNote(topic, a.sex);
      if (NO.test(s.text.trim())) {
        paragraphs.at(-1)!.push({ text: finishSentence(`${S} denies ${topicNote}`), src });
        addRos(topic, false, s.tid);
        count++;
        if (words.length <= 4) continue;
      } else if (YES.test(s.text.trim()) && words.length <= 4) {
        const verb = /^(taking|using|doing|working|sleeping|eating|exercising|walking|checking)\b/.test(topicNote) ? 'is' : 'reports';
        paragraphs.at(-1)!.push({ text: finishSentence(`${S} ${verb} ${topicNote}`), src });
        addRos(topic, true, s.tid);
        count++;
        continue;
      }
    }
    if (words.length < 3 || !CLINICAL.test(s.text)) continue;
    // A patient's own question ("do you think it could be …") is not history.
    if (s.question || /^(?:because|cause|or|if|but|and|so|like)\b/i.test(answer)) continue;
    if (ctx.verbosity === 'CONCISE' && !/\d|\b(pain|since|ago|started|weeks?|days?|months?)\b/i.test(s.text)) continue;
    let body = toThirdPerson(answer, a.sex);
    if (!body || body.split(' ').length < 3) continue;
    if (!new RegExp(`^(${p.subj}|the patient|${p.poss}|it|this|that|they|there)\\b`, 'i').test(body)) {
      body = /^(been|had|have|has|was|is|got|started|felt|took|went|noticed|tried)\b/i.test(body) ? `${p.subj} ${body}` : `${p.subj} reports ${body}`;
    }
    body = body.replace(/^(she|he|the patient) (reports|is|has)\b/i, (m) => m);
    const first = paragraphs.at(-1)!.length === 0 && paragraphs.length > 1;
    let text = finishSentence(body);
    if (first) text = finishSentence(`The patient ${body.replace(new RegExp(`^${p.subj}\\s+`, 'i'), '')}`);
    paragraphs.at(-1)!.push({ text, src: [s.tid] });
    hpiWords += text.split(' ').length;
    addRos(answer, true, s.tid);
    count++;
  }
  return { hpi: paragraphs.filter((x) => x.length), ros };
}

export function openingSentence(ctx: NoteContext, problem: string | undefined): Piece | undefined {
  const { a } = ctx;
  const sex = a.sex === 'female' ? 'female' : a.sex === 'male' ? 'male' : 'patient';
  const who = a.age ? `a ${a.age}-year-old ${sex}` : sex === 'patient' ? '' : `a ${sex}`;
  const reason = ctx.req.visit?.reason_for_visit ?? ctx.req.visit?.chief_complaint ?? problem;
  if (!who && !reason) return undefined;
  const subject = a.name ? capitalize(a.name) : 'The patient';
  const pmh = ctx.pmh?.length ? ` with a past medical history significant for ${listJoin(ctx.pmh)}` : '';
  const text = who
    ? `${subject} is ${who}${pmh} who presents today${reason ? ` for evaluation of ${reason.toLowerCase()}` : ''}.`
    : `${subject} presents for evaluation of ${reason!.toLowerCase()}.`;
  return { text, src: [] };
}

export function listJoin(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}

// ---------------------------------------------------------------------------------------------
// Physical examination, results
// ---------------------------------------------------------------------------------------------

const EXAM_SYSTEMS: Array<[string, RegExp]> = [
  ['Vitals', /\b(blood pressure|heart rate|pulse|temperature|oxygen|o2 sat|saturation|respiratory rate|weight is|bmi)\b/i],
  ['Cardiovascular', /\b(heart|murmur|rhythm|gallop|rub|pulses|carotid|bruit|cardiac)\b/i],
  ['Respiratory', /\b(lungs?|breath sounds|wheez|crackles|rales|rhonchi|respiratory)\w*/i],
  ['Gastrointestinal', /\b(abdomen|abdominal|belly|bowel sounds|liver|spleen|stomach)\b/i],
  ['Neck', /\b(neck|thyroid|lymph|jvd|jugular)\w*/i],
  ['HEENT', /\b(eyes?|pupils|ears?|throat|tonsils|nose|nasal|sinus|mouth|tympanic|oropharynx|head)\b/i],
  ['Integumentary', /\b(skin|rash|lesion|wound|incision|scar|erythema|redness|bruis)\w*/i],
  ['Psychiatric', /\b(mood|affect|oriented|alert)\b/i],
  ['Neurological', /\b(reflexes|sensation|cranial|neuro|gait|balance|numbness|tingling|romberg)\w*/i],
  ['Musculoskeletal', /\b(strength|knee|shoulder|hip|ankle|wrist|elbow|back|spine|lumbar|cervical|joint|range of motion|tender|palpation|swelling|effusion|foot|hand|finger|toe|leg|arm|muscle|edema|extremit)\w*/i],
];
const FINDING = /\b(normal|clear|no|not|tender|tenderness|swelling|swollen|murmur|regular|soft|pain|painful|decreased|limited|intact|positive|negative|full|range of motion|strength|reflex|bruit|edema|rash|redness|erythema|warm|effusion|crepitus|bruising|ecchymosis|wheez\w*|crackles|enlarged|elevated|\d+\/\d+|\d)\b/i;
const EXAM_INSTRUCTION = /^(take a deep breath|breathe|look (up|down|at)|follow my|lie back|lay back|sit up|push|pull|squeeze|relax|bend|turn|open|say|stand|walk|let me|i'm going to|i am going to|i want to|i'm just going to|i'll|let's|can you|could you|go ahead)\b/i;

/**
 * Normal findings said in passing ("your heart sounds good", "lungs are clear") in the wording scribes
 * use for a normal system exam. A clause that also names an abnormal finding is not templated.
 */
export const NORMAL_EXAM: Array<{ system: string; said: RegExp; unless: RegExp; text: string }> = [
  {
    system: 'Cardiovascular',
    said: /\b(?:heart|heart sounds?|heart exam)\b[^.]{0,30}\b(?:sounds? (?:good|great|fine|normal|okay|ok|clear)|(?:is|are|looks?) (?:good|great|fine|normal|okay|ok)|normal|regular rate and rhythm|regular)\b|\bregular rate and rhythm\b/i,
    unless: /\b(?:murmur|gallop|rub|irregular|click|bruit|extra)\b(?![^.]{0,12}\b(?:no|any)\b)|\b\d\/6\b/i,
    text: 'Regular rate and rhythm. No murmurs, gallops, or rubs.',
  },
  {
    system: 'Respiratory',
    said: /\b(?:lungs?|breath sounds|lung exam)\b[^.]{0,30}\b(?:clear|sounds? (?:good|great|fine|normal|okay|ok)|(?:is|are|look|looks) (?:good|great|fine|normal|okay|ok)|normal)\b/i,
    unless: /\b(?:wheez\w*|crackles?|rales|rhonchi|diminished|decreased)\b(?<!\bno (?:wheez\w*|crackles?|rales|rhonchi))/i,
    text: 'Lungs are clear to auscultation bilaterally. No wheezes, rales, or rhonchi.',
  },
  {
    system: 'Gastrointestinal',
    said: /\b(?:abdomen|belly|stomach|abdominal exam)\b[^.]{0,30}\b(?:soft|(?:is|feels|looks) (?:good|fine|normal|okay|ok)|normal|non-?tender)\b/i,
    unless: /\b(?:tender|tenderness|pain|distended|guarding|rebound|mass)\b(?<!\b(?:non-?|no |not )(?:tender|tenderness|pain|distended|guarding|rebound|mass))/i,
    text: 'Soft, nontender, and nondistended. No masses, rebound, or guarding.',
  },
  {
    system: 'Neck',
    said: /\bneck\b[^.]{0,30}\b(?:supple|(?:is|feels|looks) (?:good|fine|normal|okay|ok)|normal)\b/i,
    unless: /\b(?:tender|swollen|enlarged|mass|bruit|stiff|jvd|jugular)\b/i,
    text: 'Supple without thyromegaly or lymphadenopathy.',
  },
  {
    system: 'Musculoskeletal',
    said: /\b(?:no|don't see any|do not see any|not seeing any|without)\s+(?:\w+\s+){0,2}(?:swelling|edema)\b[^.]{0,25}\b(?:legs?|ankles?|lower extremit\w*|feet)\b|\bno (?:lower extremity |leg |pitting )?edema\b/i,
    unless: /\b(?:trace|pitting|\d\+)\b/i,
    text: 'No lower extremity edema.',
  },
  {
    system: 'Vitals',
    said: /\b(?:vital signs|vitals)\b[^.]{0,25}\b(?:look|looks|are|were|seem)\s+(?:good|great|fine|normal|okay|ok|stable|within normal limits)\b/i,
    unless: /\b(?:elevated|high|low|fever|\d{2,3}\/\d{2,3})\b/i,
    text: 'All vital signs are within the normal limits.',
  },
];

/** Clauses of an exam sentence ("your heart sounds good, and your lungs are clear") for per-system templating. */
function examClauses(t: string): string[] {
  return t
    .split(/,\s*|;\s*|\s+(?:and|but|so)\s+(?=(?:your|the|her|his|there|i|on|no)\b)|\s+(?=(?:let me|let's|i'm going to|i am going to|i'm just going to|if you can|can you|i want to|(?:and )?listen(?:ing)? to)\b)|(?<=\b(?:heart|lungs|belly|abdomen)\b)\s+(?=(?:your|the|her|his) (?:heart|lungs?|belly|abdomen)\b)/i).map((x) => x.trim()).filter(Boolean);
}

export function examBlocks(ctx: NoteContext): Block[] {
  const { a } = ctx;
  const bySystem = new Map<string, Piece[]>();
  const sents = a.sentences.slice(a.examStart, a.planStart).filter((s) => s.role === 'CLINICIAN' && !s.question);
  const templated = new Set<string>();
  for (const s of sents) {
    let t = stripFiller(s.text).replace(/^(so|and|now|on|um|okay)\s+/i, '');
    t = t.replace(/^(?:on )?(?:physical )?exam(?:ination)? of (?:the |your )?(.+?),? (?:there is|there's|i see|i feel|shows|reveals)\s+/i, 'Examination of the $1 reveals ');
    t = t.replace(/^(?:on )?(?:physical )?exam(?:ination)?,?\s*(?!of\b)/i, '').replace(/\b(hey,? dragon,?|show me the [a-z ]+)/gi, '');
    const rest: string[] = [];
    for (const clause of examClauses(t)) {
      const normal = NORMAL_EXAM.find((n) => n.said.test(clause) && !n.unless.test(clause));
      if (!normal) { rest.push(clause); continue; }
      if (templated.has(normal.system)) continue;
      templated.add(normal.system);
      const list = bySystem.get(normal.system) ?? [];
      list.push({ text: normal.text, src: [s.tid] });
      bySystem.set(normal.system, list);
    }
    if (rest.length === 0) continue;
    t = rest.join(', ');
    if (EXAM_INSTRUCTION.test(t) && !FINDING.test(t.replace(EXAM_INSTRUCTION, '').slice(0, 0))) {
      const rest = t.replace(/^.*?\b(and|so)\s+(?=your|the|there|i (do|don't) )/i, '');
      if (rest === t) continue;
      t = rest;
    }
    if (!FINDING.test(t) || t.split(' ').length < 2 || RESULT_CUE.test(t)) continue;
    t = t
      .replace(/\bi (?:do not|don't) (?:hear|see|feel|appreciate) any\b/gi, 'no')
      .replace(/\bi (?:do not|don't) (?:hear|see|feel|appreciate)\b/gi, 'no')
      .replace(/\bi (?:do )?(?:hear|see|feel|appreciate|notice)\b/gi, 'there is')
      .replace(/\b(looks|sounds|seems) (good|fine|great|okay)\b/gi, 'is normal')
      .replace(/\byour lungs are clear\b/gi, 'lungs are clear to auscultation bilaterally');
    const note = finishSentence(clinicianToNote(t, a.sex).replace(/^(?:it |it's |that )/i, '').replace(/^(?:her|his|their|the patient's) (?=[a-z])/i, ''));
    const system = EXAM_SYSTEMS.find(([, re]) => re.test(t))?.[0] ?? 'General';
    const list = bySystem.get(system) ?? [];
    list.push({ text: note, src: [s.tid] });
    bySystem.set(system, list);
  }
  const order = ['Vitals', 'General', 'Neck', 'HEENT', 'Respiratory', 'Cardiovascular', 'Gastrointestinal', 'Musculoskeletal', 'Neurological', 'Integumentary', 'Psychiatric'];
  const cap = ctx.verbosity === 'CONCISE' ? 1 : ctx.verbosity === 'DETAILED' ? 20 : 4;
  return order.filter((k) => bySystem.has(k)).map((k) => ({ label: k, pieces: bySystem.get(k)!.slice(0, cap), bullet: true }));
}

export const RESULT_CUE =
  /\b(x-ray|xray|x-rays|mri|ct scan|cat scan|labs?|lab work|blood work|bloodwork|a1c|results?|ekg|ecg|echo|echocardiogram|ultrasound|showed|shows|came back|hemoglobin|ejection fraction|cholesterol (?:was|is)|lipid|panel|urinalysis|culture|biopsy|stress test|pft|spirometry|creatinine|kidney function|thyroid (?:level|test)|tsh|vitamin d level|psa)\b/i;
const FUTURE = /\b(order|going to (?:get|order|check|send|do|repeat)|want to (?:get|order|check)|we'll (?:get|check|do|order)|will (?:get|order|check|repeat)|schedule|let's get|i'd like to get|would like to (?:get|order))\b/i;

export function resultPieces(ctx: NoteContext): Piece[] {
  const { a } = ctx;
  const out: Piece[] = [];
  for (const s of a.sentences.slice(Math.min(a.examStart, a.planStart))) {
    if (s.role !== 'CLINICIAN' || s.question || !RESULT_CUE.test(s.text) || FUTURE.test(s.text) || /^(?:hey,? dragon,? )?show me\b/i.test(s.text)) continue;
    if (!/\b(normal|abnormal|showed|shows|show|elevated|high|low|negative|positive|revealed|demonstrat\w*|consistent|fracture|no evidence|unremarkable|within|was \d|is \d|at \d|\d)\b/i.test(s.text)) continue;
    let t = stripFiller(s.text).replace(/\b(hey,? dragon,?|show me the [a-z0-9 -]+?(?=\.|,|$))/gi, '').replace(/^[,. ]+/, '');
    t = t.replace(/^(so|and|now|um|okay|alright),?\s+/i, '').replace(/\bin reviewing (the )?results of your\b/i, 'Review of the');
    if (t.split(' ').length < 3) continue;
    out.push({ text: finishSentence(clinicianToNote(t, a.sex)), src: [s.tid] });
  }
  const cap = ctx.verbosity === 'CONCISE' ? 2 : ctx.verbosity === 'DETAILED' ? 20 : 6;
  return out.slice(0, cap);
}

// ---------------------------------------------------------------------------------------------
// Assessment and plan, diagnoses
// ---------------------------------------------------------------------------------------------

export interface Problem {
  code: string;
  name: string;
  mentions: ConditionMention[];
  reasoning: Piece[];
  testing: Piece[];
  treatment: Piece[];
  referral: Piece[];
  education: Piece[];
}

const PROBLEM_CUE = /\b(for your|in terms of|regarding|as for|with regards? to|next problem|first problem|second problem|last problem|impression|i think (?:you have|that you have|this is|it's|you've)|diagnosis|as far as|your|for the|for his|for her)\b/i;
const TESTING = /\b(x-ray|xray|mri|ct|cat scan|labs?|blood work|bloodwork|a1c|panel|ultrasound|echo\w*|ekg|test|testing|cbc|cmp|culture|biopsy|colonoscopy|mammogram|scan|study|urinalysis|level|levels|catheterization|cath|imaging|screening)\b/i;
const REFERRAL = /\b(refer|referral|physical therapy|specialist|orthopedic|surgeon|cardiologist|dermatologist|neurologist|endocrinologist|nutritionist|dietitian|counseling|therapist|see a)\b/i;
const TREATMENT = /\b(prescribe|prescription|medication|medicine|mg|milligrams|continue|start|increase|decrease|brace|splint|sling|crutches|surgery|injection|shot|dose|refill|ice|icing|heat|rest|elevat\w*|take|taking|inhaler|cream|antibiotic|therapy|procedure)\b/i;
const EDUCATION = /\b(recommend|advise|encourage|discussed|talked about|avoid|diet|exercise|make sure|should|call|come back|return|worse|follow up|follow-up|lose weight|stretch|monitor|keep an eye|watch|hydrat\w*|drink plenty|limit|cut back)\b/i;
const PLAN_NOISE = /^(okay|alright|all right|any questions|does that sound|sounds good|how does that sound|is that okay|hey,? dragon|thank you|great|good|perfect|yes|yeah)\b|\bfinalize the note\b|\b(the nurse|checked out|assessment and (?:my )?plan|talk (?:a little bit )?about (?:my|the) (?:assessment|plan)|go over (?:my|the|a little))\b/i;

function problemName(m: ConditionMention): string {
  const toks = m.sentence.tokens;
  const mods: string[] = [];
  for (let k = m.start - 1; k >= Math.max(0, m.start - 2); k--) {
    if (/^(acute|chronic|mild|moderate|severe|uncontrolled|controlled|recurrent|persistent|new|worsening|stable)$/.test(toks[k])) mods.unshift(toks[k]);
    else break;
  }
  let surface = [...mods, m.surface].join(' ');
  if (/^(chf|copd|gerd|bph|uti|dvt|osa|ptsd|adhd|ckd|afib|hfref|hfpef|esrd|pcos|htn)$/.test(surface)) surface = surface.toUpperCase();
  else if (surface.split(' ').length === 1 && surface.length <= 3) surface = CONCEPT_NAME.get(m.code) ?? surface;
  return capitalize(surface.replace(/\bi\b/g, 'I'));
}

function isDiagnosisCode(code: string): boolean {
  return !/^(Z0|Z1|Z2|Z3|Z5|Z7[1-6]|W|T14)/.test(code);
}

/**
 * Spoken plans run on ("… metformin I am going to order an A1c I want you to …"); each new first-person
 * action starts a clause so it can be filed under its own heading and kept or dropped on its own.
 */
export function splitPlanClauses(text: string): string[] {
  return text
    .split(/,?\s+(?:and\s+|so\s+|then\s+)?(?=(?:i|we) (?:will|would like|want|am going|are going|'ll|'m going|also want|also will|do want|think|recommend)\b|(?:i'd|we'd) like\b)/i)
    .map((x) => x.trim())
    .filter(Boolean);
}

const ORDINAL_INTRO =
  /^(?:[a-z]+,?\s+)?(?:so\s+|now\s+|and\s+)?(?:for|with|regarding|as for|in terms of|moving on to|onto|on to)\s+(?:your|the|her|his|their)?\s*(?:first|second|third|fourth|fifth|next|last|final|other)\s+(?:problem|issue|concern|thing)(?:\s+(?:of|is|with|which is))?\s*(?:your|the|her|his|their)?\s*/i;

/** "for your second problem of your diabetes mellitus, we will …" → "we will …": the heading names it. */
function stripProblemIntro(t: string, p: Problem, mentions: ConditionMention[]): string {
  let out = t.replace(ORDINAL_INTRO, '');
  const m = mentions.find((x) => x.code === p.code);
  if (m && out !== t) {
    const surface = new RegExp(`^(?:[a-z]+\\s+){0,2}?${m.surface.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')}\\w*[,.]?\\s*`, 'i');
    out = out.replace(surface, '');
  }
  return out.trim() || t;
}

/** Groups the clinician's assessment/plan talk by problem and files each sentence under its heading. */
export function planProblems(ctx: NoteContext): { problems: Problem[]; orphan: Piece[] } {
  const { a } = ctx;
  const problems: Problem[] = [];
  const orphan: Piece[] = [];
  let current: Problem | undefined;
  // A clause that starts a new action ("…, and we will check an A1c") is filed on its own.
  const sents = a.sentences
    .slice(a.planStart)
    .filter((s) => s.role === 'CLINICIAN')
    .flatMap((s) => splitPlanClauses(s.text).map((text) => (text === s.text ? s : { ...s, text, tokens: tokenize(text) })));
  for (const s of sents) {
    let t = stripFiller(s.text.replace(/\bhey,? dragon,?[^.]*\.?/gi, ''));
    if (!t || PLAN_NOISE.test(t) || t.split(' ').length < 4 || (s.question && !/\b(want|like|going|plan)\b/i.test(t))) continue;
    const mentions = conditionMentions(s).filter((m) => !m.negated && !m.family);
    const introduced = mentions.find((m) => isDiagnosisCode(m.code) && (PROBLEM_CUE.test(t) || !current));
    if (introduced) {
      const existing = problems.find((p) => p.code === introduced.code || p.code.slice(0, 3) === introduced.code.slice(0, 3));
      if (existing) current = existing;
      else {
        current = { code: introduced.code, name: problemName(introduced), mentions: [], reasoning: [], testing: [], treatment: [], referral: [], education: [] };
        problems.push(current);
      }
    }
    if (current) current.mentions.push(...mentions.filter((m) => m.code === current!.code));
    t = t.replace(/^(so|and|now|um|okay|alright|also),?\s+/i, '').replace(/^(?:for your (?:first |next |last )?problem(?: of)?|for your|in terms of your|regarding your|as for your)\s+([^,]+),\s*/i, '');
    if (current) t = stripProblemIntro(t, current, mentions);
    const note = finishSentence(clinicianToNote(t, a.sex));
    if (note.split(' ').length < 3) continue;
    const piece: Piece = { text: note, src: [s.tid] };
    if (!current) { orphan.push(piece); continue; }
    const bucket = findDrugs(t).length || /\b(prescribe|brace|splint|sling|surgery|injection)\b/i.test(t)
      ? current.treatment
      : REFERRAL.test(t)
        ? current.referral
        : TESTING.test(t) && /\b(order|get|check|obtain|repeat|draw|schedule|send|do)\b/i.test(t)
          ? current.testing
          : TREATMENT.test(t)
            ? current.treatment
            : EDUCATION.test(t)
              ? current.education
              : current.reasoning;
    if (bucket === current.reasoning && note.split(' ').length < 5) continue;
    bucket.push(piece);
  }
  if (problems.length && orphan.length) problems[0].reasoning.unshift(...orphan.splice(0));
  return { problems, orphan };
}

/** Pieces in order until the word budget is spent; a piece repeating an earlier one is dropped. */
function budgeted(pieces: Piece[], cap: number, budget: number, seen: string[][]): Piece[] {
  const out: Piece[] = [];
  let words = 0;
  for (const p of pieces) {
    if (out.length >= cap) break;
    const toks = tokenize(p.text);
    const repeat = seen.some((prev) => {
      const set = new Set(prev);
      return toks.filter((t) => set.has(t)).length >= toks.length * 0.8;
    });
    if (repeat) continue;
    if (out.length && words + toks.length > budget) break;
    out.push(p);
    seen.push(toks);
    words += toks.length;
  }
  return out;
}

const FOLLOW_UP =
  /\b(?:see (?:you|her|him|them) (?:back )?|follow(?: |-)?up (?:with me )?|come back |return |recheck (?:you )?|back )in (?:about |another |a )?(\d+|a|one|two|three|four|six|couple(?: of)?|few) ?(days?|weeks?|months?|years?)\b/i;

/** "I'll see you back in 4 weeks" → the follow-up line scribes end the plan with. */
export function followUpPiece(ctx: NoteContext): Piece | undefined {
  for (const s of ctx.a.sentences.slice(ctx.a.planStart).reverse()) {
    if (s.role !== 'CLINICIAN') continue;
    const m = FOLLOW_UP.exec(s.text);
    if (!m) continue;
    const n = /^(a|one)$/i.test(m[1]) ? '1' : /^couple/i.test(m[1]) ? 'a couple of' : /^few$/i.test(m[1]) ? 'a few' : m[1];
    const unit = n === '1' ? m[2].replace(/s$/, '') : /s$/.test(m[2]) ? m[2] : `${m[2]}s`;
    return { text: `The patient will follow up in ${n} ${unit.toLowerCase()}.`, src: [s.tid] };
  }
  return undefined;
}

export function planBlocks(ctx: NoteContext, problems: Problem[], orphan: Piece[], opener?: Piece): Block[] {
  const blocks: Block[] = [];
  if (opener && ctx.verbosity !== 'CONCISE') blocks.push({ pieces: [opener], para: true });
  const cap = ctx.verbosity === 'CONCISE' ? 1 : ctx.verbosity === 'DETAILED' ? 20 : 3;
  // Scribes write a line or two per heading; budget tuned on the ACI-BENCH train split.
  const wordBudget = ctx.verbosity === 'DETAILED' ? 10_000 : ctx.verbosity === 'CONCISE' ? 25 : 60;
  const seen: string[][] = [];
  problems.forEach((p, n) => {
    blocks.push({ heading: `${n + 1}. ${p.name}.`, pieces: [], para: true });
    const parts: Array<[string, Piece[]]> = [
      ['Medical Reasoning', p.reasoning],
      ['Additional Testing', p.testing],
      ['Medical Treatment', p.treatment],
      ['Specialist Referrals', p.referral],
      ['Patient Education and Counseling', p.education],
    ];
    // Scribes record the counselling the clinician gave; only when the clinician did discuss the problem.
    if (ctx.verbosity !== 'CONCISE' && !p.education.length) {
      const talk = [...p.reasoning, ...p.treatment, ...p.testing].find((x) => /\b(discuss|talk|explain|recommend|options?|risks?|benefits?)\w*/i.test(x.text));
      if (talk) parts[4] = ['Patient Education and Counseling', [{ text: `I discussed the diagnosis and treatment options for ${p.name.toLowerCase()} with the patient.`, src: talk.src }]];
    }
    for (const [label, pieces] of parts) {
      if (!pieces.length) continue;
      if (ctx.verbosity === 'CONCISE' && label === 'Medical Reasoning' && (p.treatment.length || p.testing.length)) continue;
      const kept = budgeted(pieces, cap, wordBudget, seen);
      if (kept.length) blocks.push({ label, pieces: kept, bullet: true });
    }
  });
  if (!problems.length && orphan.length) blocks.push({ pieces: orphan.slice(0, cap * 2), para: true });
  const followUp = followUpPiece(ctx);
  const agreed = ctx.a.sentences.slice(ctx.a.planStart).filter((s) => s.role === 'PATIENT' && /\b(okay|sounds good|sure|yes|yeah|agree|alright|that's fine|no problem|perfect)\b/i.test(s.text)).at(-1);
  if (agreed && (problems.length || orphan.length))
    blocks.push({ label: 'Patient Agreements', pieces: [{ text: 'The patient understands and agrees with the recommended medical treatment plan.', src: [agreed.tid] }], para: true });
  if (followUp) blocks.push({ label: 'Instructions', pieces: [followUp], para: true });
  return blocks;
}

/** Coded diagnoses: the problems of the plan, plus chronic conditions the clinician affirmed earlier. */
export function diagnoses(ctx: NoteContext, problems: Problem[]): Diagnosis[] {
  const out: Diagnosis[] = [];
  const seen = new Set<string>();
  const add = (code: string, note: string) => {
    const icd = ctx.codes.icd10(code);
    if (!icd || seen.has(icd.code)) return;
    seen.add(icd.code);
    const codes: Diagnosis['codes'] = [{ code: icd.code, description: icd.description, type: 'ICD10' }];
    const hcc = ctx.codes.hcc(icd.code, ctx.model);
    if (hcc) codes.push({ code: hcc.code, description: hcc.label, type: 'HCC' });
    const d: Diagnosis = { codes, diagnosis_note: note };
    const desc = icd.description.toLowerCase();
    if (/\bbilateral\b/.test(desc)) d.laterality_indicator = 'BILATERAL';
    else if (/\bright\b/.test(desc)) d.laterality_indicator = 'RIGHT';
    else if (/\bleft\b/.test(desc)) d.laterality_indicator = 'LEFT';
    out.push(d);
  };
  for (const p of problems) {
    const note = [...p.reasoning, ...p.treatment, ...p.testing].slice(0, 2).map((x) => x.text).join(' ') || `${p.name}.`;
    add(p.code, note);
  }
  // A symptom code is dropped when a definitive diagnosis of the same problem is already coded.
  const a = ctx.a;
  for (const s of a.sentences) {
    if (s.role !== 'CLINICIAN' || s.question) continue;
    for (const m of conditionMentions(s)) {
      // Injuries (S codes) count only when the clinician names them in the assessment, not when asking.
      if (m.negated || m.family || !/^[A-QS-Y]/.test(m.code) || !isDiagnosisCode(m.code) || /^(Z|T|W)/.test(m.code) || (/^S/.test(m.code) && s.i < a.planStart)) continue;
      if (s.i >= a.planStart || /\b(history|diagnosed|have|has|with|your)\b/.test(s.tokens.slice(Math.max(0, m.start - 6), m.start).join(' ')))
        add(m.code, finishSentence(clinicianToNote(stripFiller(s.text), a.sex)));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Medications, allergies
// ---------------------------------------------------------------------------------------------

function mergeOrder(into: MedicationOrder, from: MedicationOrder) {
  into.dosage = into.dosage.quantity === null ? from.dosage : into.dosage;
  into.frequency = into.frequency.structured_value === null ? from.frequency : into.frequency;
  into.medication_timing ??= from.medication_timing;
  into.route ??= from.route;
  into.duration_in_days ??= from.duration_in_days;
  into.number_of_refills ??= from.number_of_refills;
  into.instructions ??= from.instructions;
  if (from.status === STATUS.DISCONTINUED) into.status = from.status;
}

const ORDER_VERB = /\b(prescribe|prescribing|start|starting|initiate|put (?:you|him|her) on|order|refill|continue|increase|decrease|stop|discontinue|switch|change|add|try|take|give you|send in|call in|keep taking|stay on)\b/i;

export function medicationOrders(
  ctx: NoteContext,
  problems: Problem[],
): { values: MedicationOrder[]; partial: MedicationOrder[]; current: Piece[]; sources: Map<string, string[]> } {
  const { a } = ctx;
  const orders = new Map<string, MedicationOrder>();
  const sources = new Map<string, string[]>();
  const current = new Map<string, Piece>();
  for (const s of a.sentences) {
    const drugs = findDrugs(s.text);
    if (!drugs.length) continue;
    const ordering = s.role === 'CLINICIAN' && !s.question && (ORDER_VERB.test(s.text) || (s.i >= a.planStart && /\d/.test(s.text)));
    const negatedUse = /\b(not taking|don't take|never taken|stopped taking|no longer taking|allergic)\b/i.test(s.text);
    for (const d of drugs) {
      if (ordering) {
        const o = parseOrder(s.text, d, ctx.codes);
        sources.set(d.ingredient, [...new Set([...(sources.get(d.ingredient) ?? []), s.tid])]);
        const prev = orders.get(d.ingredient);
        if (prev) mergeOrder(prev, o);
        else orders.set(d.ingredient, o);
        const p = problems.find((pr) => pr.treatment.some((x) => x.src.includes(s.tid)));
        if (p && !o.linked_diagnosis_codes.length) {
          const icd = ctx.codes.icd10(p.code);
          if (icd) (prev ?? o).linked_diagnosis_codes = [icd.code];
        }
      }
      if (s.i < a.planStart && !negatedUse && !current.has(d.ingredient)) {
        const o = parseOrder(s.text, d, ctx.codes);
        const sig = [o.dosage.raw_value?.replace(/milligrams?/i, 'mg'), o.frequency.raw_value].filter(Boolean).join(' ');
        current.set(d.ingredient, { text: finishSentence(`${capitalize(d.ingredient)}${sig ? ' ' + sig : ''}`), src: [s.tid] });
      }
    }
  }
  const values: MedicationOrder[] = [];
  const partial: MedicationOrder[] = [];
  const emr = ctx.req.emrContext?.medications;
  for (const o of orders.values()) {
    if (emr) {
      const onIt = emr.find((m) => (o.medication_code && m.rxcui === o.medication_code.code) || m.name.toLowerCase().includes(o.drug_name.toLowerCase()));
      if (onIt && !o.medication_code && onIt.rxcui) o.medication_code = { code: onIt.rxcui, type: 'RXCUI' };
      if (onIt && o.status === STATUS.NEW) o.status = o.dosage.quantity === null ? STATUS.CONTINUED : STATUS.CHANGED;
      // Reconciling a drug the EMR does not list cannot be confirmed; it is left for the clinician.
      if (!onIt && ([STATUS.DISCONTINUED, STATUS.REFILLED, STATUS.CONTINUED, STATUS.CHANGED] as string[]).includes(o.status)) {
        partial.push(o);
        continue;
      }
    }
    (isCompleteOrder(o) ? values : partial).push(o);
  }
  return { values, partial, current: [...current.values()], sources };
}

export function allergyPieces(ctx: NoteContext): Piece[] {
  const out: Piece[] = [];
  for (const s of ctx.a.sentences) {
    const q = s.role === 'PATIENT' ? priorQuestion(ctx, s) : undefined;
    if (q && /\ballerg/i.test(q.text) && s === ctx.a.turns[s.turn].sentences[0] && NO.test(s.text.trim())) {
      out.push({ text: 'No known drug allergies.', src: [q.tid, s.tid] });
      continue;
    }
    if (!/\ballerg/i.test(s.text)) continue;
    else if (/\b(no|not|don't have any|nkda)\b.{0,20}\ballerg/i.test(s.text) && s.role === 'PATIENT') out.push({ text: 'No known drug allergies.', src: [s.tid] });
    else {
      const m = /\ballergic to ([a-z0-9 ,/-]+)/i.exec(s.text);
      if (m && !/\b(any|anything)\b/i.test(m[1].split(' ')[0])) out.push({ text: finishSentence(`Allergic to ${m[1].replace(/\s*(and|but)\s*$/, '')}`), src: [s.tid] });
    }
  }
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(p.text) && !!seen.add(p.text));
}

export { toThirdPerson };
