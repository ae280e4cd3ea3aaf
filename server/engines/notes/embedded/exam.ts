/** Physical examination and results. */
import { stripFiller, type Block, type NoteContext, type Piece } from './compose';
import { splitDictated } from './dictated';
import { findDrugs } from './meds';
import { clinicianToNote, finishSentence } from './text';
import { elevatedPressure, vitalsIn } from './vitals';

const EXAM_SYSTEMS: Array<[string, RegExp]> = [
  ['Vitals', /\b(blood pressure|heart rate|pulse (?:is|was|rate)|temperature|oxygen|o2 sat|saturation|respiratory rate|weight is|bmi)\b/i],
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

/**
 * A run-on exam ("neck exam … her lung exam she has crackles … on her heart exam a 2/6 murmur") split where
 * a clause names another body system, so each finding is filed under its own system.
 */
function systemGroups(clauses: string[]): string[][] {
  const groups: Array<{ system?: string; clauses: string[] }> = [];
  for (const c of clauses) {
    const system = EXAM_SYSTEMS.find(([, re]) => re.test(c))?.[0];
    const cur = groups.at(-1);
    if (cur && (!system || !cur.system || system === cur.system)) {
      cur.clauses.push(c);
      cur.system ??= system;
    } else groups.push({ system, clauses: [c] });
  }
  return groups.map((g) => g.clauses);
}

/** Clauses of an exam sentence ("your heart sounds good, and your lungs are clear") for per-system templating. */
function examClauses(t: string): string[] {
  return t
    .split(/(?<!\b(?:on|and))\s+(?=(?:on |and )?(?:her|his|your|their|the) (?:[a-z]+ ){1,2}exam\b)|,\s*|;\s*|\s+(?:and|but|so)\s+(?=(?:your|the|her|his|there|i|on|no)\b)|\s+(?=(?:let me|let's|i'm going to|i am going to|i'm just going to|if you can|can you|i want to|(?:and )?listen(?:ing)? to)\b)|(?<=\b(?:heart|lungs|belly|abdomen)\b)\s+(?=(?:your|the|her|his) (?:heart|lungs?|belly|abdomen)\b)/i).map((x) => x.trim()).filter(Boolean);
}

// A sentence that is a reading and nothing more, as the clinician reads the room's measurement out to the patient.
const ROOM_READING =
  /^(?:(?:so|and|okay|ok|now|well|alright|all right)[, ]+)*(?:(?:your|her|his|their|the) )?(?:oxygen(?: saturation| sat\w*| levels?)?|o2 sat\w*|sats|saturation|pulse ox\w*|blood pressure|heart rate|pulse|temperature|temp|respiratory rate)(?: (?:reading|today|here))? (?:(?:is|was|'s|are|were|of|at)\s+)?(?:(?:about|around|at)\s+)?\d+(?:\/\d+|\.\d)?(?:\s?(?:%|percent|bpm|beats per minute|degrees|mmhg))?(?: on room air)?(?: (?:today|here|right now|in the office|this morning))?[.!]?$/i;
const roomReading = (text: string) => ROOM_READING.test(stripFiller(text).trim()) || /\b(?:sats|satting)\s+(?:(?:is|was|are|were|of|at|about|around)\s+)?\d{2,3}\b/i.test(text);

// A finding said as one: "On exam there is crepitus in the right knee", "on examination, your lungs are clear".
const EXAM_OPENS = /^(?:(?:so|and|now|okay|ok|alright)[, ]+)*(?:on (?:physical )?exam(?:ination)?|(?:your |the )?(?:physical )?exam(?:ination)? (?:today )?(?:shows|showed|reveals|revealed))\b/i;

/**
 * Whether a sentence said after the plan began is an exam finding all the same. The plan starts at its first cue, and
 * the exam never after it (analyze.ts), so when the clinician assesses one problem ("your hypertension is not
 * controlled") before examining for the next, the exam's window is empty: a browser trial (3 Dec) filed "On exam there is
 * crepitus in the right knee" as the hypertension's reasoning and the note had no examination.
 */
export function examInPlan(analysis: NoteContext['analysis'], s: NoteContext['analysis']['sentences'][number]): boolean {
  return analysis.examStart === analysis.planStart && s.i >= analysis.planStart && s.role === 'CLINICIAN' && !s.question && EXAM_OPENS.test(stripFiller(s.text));
}

export function examBlocks(ctx: NoteContext): Block[] {
  const { analysis } = ctx;
  const bySystem = new Map<string, Piece[]>();
  const sents = analysis.sentences.filter((s) => (s.i >= analysis.examStart && s.i < analysis.planStart && s.role === 'CLINICIAN' && !s.question) || examInPlan(analysis, s));
  const templated = new Set<string>();
  const measured = new Map<string, Piece>();
  const complained = /^(right|left|bilateral) ([a-z]+(?: [a-z]+)?) pain$/i.exec(ctx.complaint ?? '');
  // A vital sign measured in the room may be said before any exam cue ("your blood pressure today is 150 over
  // 92"); it belongs with the exam's vitals, not nowhere. Readings from home are history, not measured here.
  // So may one said after the exam's talk, or in a visit with no exam cue at all, when the sentence is the reading
  // told to the patient and nothing else ("your oxygen level was 97 percent", "sats 95"): not "if your temperature is
  // over 101 today, call", which the today-cue would take.
  for (const s of analysis.sentences) {
    if (s.i >= analysis.examStart && s.i < analysis.planStart) continue;
    const here = s.i < analysis.examStart && /\b(?:today|here|right now)\b/i.test(s.text);
    if (s.role !== 'CLINICIAN' || s.question || !(here || roomReading(s.text)) || /\bat home\b|\bhome (?:readings?|monitor)\b/i.test(s.text)) continue;
    for (const v of vitalsIn(s.text)) if (!measured.has(v.label)) measured.set(v.label, { text: `${v.value}.`, src: [s.tid] });
  }
  for (const s of sents) {
    let t = stripFiller(s.text).replace(/^(so|and|now|on|um|okay)\s+/i, '');
    t = t.replace(/^(?:on )?(?:physical )?exam(?:ination)? of (?:the |your )?(.+?),? (?:there is|there's|i see|i feel|shows|reveals)\s+/i, 'Examination of the $1 reveals ');
    t = t.replace(/^(?:on )?(?:physical )?exam(?:ination)?,?\s*(?!of\b)/i, '').replace(/\b(hey,? dragon,?|show me the [a-z ]+)/gi, '');
    const elevated = measured.has('Blood pressure') ? undefined : elevatedPressure(t);
    if (elevated) {
      measured.set('Blood pressure', { text: `${elevated.value}.`, src: [s.tid] });
      t = elevated.rest;
    }
    const rest: string[] = [];
    for (const clause of examClauses(t)) {
      const vitals = vitalsIn(clause);
      if (vitals.length) {
        for (const v of vitals) if (!measured.has(v.label)) measured.set(v.label, { text: `${v.value}.`, src: [s.tid] });
        continue;
      }
      const normal = NORMAL_EXAM.find((n) => n.said.test(clause) && !n.unless.test(clause));
      if (!normal) { rest.push(clause); continue; }
      if (templated.has(normal.system)) continue;
      templated.add(normal.system);
      const list = bySystem.get(normal.system) ?? [];
      list.push({ text: normal.text, src: [s.tid], template: true });
      bySystem.set(normal.system, list);
    }
    for (const group of systemGroups(rest)) {
    t = group.join(', ');
    if (EXAM_INSTRUCTION.test(t)) {
      // "I'm going to listen here real quick, no, I don't hear any carotid bruits": the finding after the instruction.
      const found = /\b(?:and|so)\s+(?=your|the|there|i (?:do|don't) )|\b(?=no\b|there is\b|there's\b|i (?:do not|don't|do) (?:hear|see|feel|appreciate)\b)/i.exec(t.replace(EXAM_INSTRUCTION, (m) => ' '.repeat(m.length)));
      if (!found) continue;
      t = t.slice(found.index + found[0].length);
    }
    if (!(FINDING.test(t) || /\bi (?:do not|don't) (?:hear|see|feel|appreciate)\b/i.test(t)) || t.split(' ').length < 2 || RESULT_CUE.test(t)) continue;
    // A drug is taken or prescribed, never found on examination: it belongs to Medications and the plan (issue 27).
    if (findDrugs(t).length) continue;
    // History talk that runs into the exam ("… how is that going") is not a finding.
    if (/\bhow (?:are|is|was|has|have) (?:things|that|it|you)\b|\bhow's (?:that|it)\b/i.test(t)) continue;
    t = t
      .replace(/\bi (?:do not|don't) (?:hear|see|feel|appreciate) any\b/gi, 'no')
      .replace(/\bi (?:do not|don't) (?:hear|see|feel|appreciate)\b/gi, 'no')
      .replace(/\bi (?:do )?(?:hear|see|feel|appreciate|notice)\b/gi, 'there is')
      .replace(/\b(looks|sounds|seems) (good|fine|great|okay)\b/gi, 'is normal')
      .replace(/\byour lungs are clear\b/gi, 'lungs are clear to auscultation bilaterally')
      .replace(/\bno,? no\b/gi, 'no')
      // An instruction the next clause began ("…, I am going to") is cut off with it.
      .replace(/,?\s*\b(?:i am|i'm) (?:just )?going to\.?$/i, '');
    const note = finishSentence(clinicianToNote(t, analysis.sex).replace(/^(?:it |it's |that )/i, '').replace(/^(?:her|his|their|the patient's) (?=[a-z])/i, ''));
    const system = EXAM_SYSTEMS.find(([, re]) => re.test(t))?.[0] ?? 'General';
    const list = bySystem.get(system) ?? [];
    // Scribes open a joint exam with the part examined: "Examination of the left shoulder: …".
    // A part examined without its side is the complaint's part on the complaint's side ("right knee pain").
    const said = /\b((?:right|left) (?:knee|shoulder|hip|ankle|wrist|elbow|hand|foot|leg|arm|great toe|big toe|toe|finger|thumb))\b/i.exec(t)?.[1];
    const ofComplaint = complained && new RegExp(`\\b${complained[2]}\\b`, 'i').test(t) ? `${complained[1]} ${/^bilateral$/i.test(complained[1]) ? complained[2].replace(/foot$/, 'feet').replace(/([^s])$/, '$1s') : complained[2]}` : undefined;
    const part = system === 'Musculoskeletal' && !list.length ? said ?? ofComplaint : undefined;
    list.push({ text: part && !/^examination of/i.test(note) ? `Examination of the ${part.toLowerCase()}: ${note}` : note, src: [s.tid] });
    bySystem.set(system, list);
    }
  }
  // A normal template never stands beside an abnormal finding of its system ("2/6 murmur" and "No murmurs").
  for (const n of NORMAL_EXAM) {
    const list = bySystem.get(n.system);
    if (list?.some((p) => p.text !== n.text && n.unless.test(p.text))) bySystem.set(n.system, list.filter((p) => p.text !== n.text));
  }
  const order = ['Vitals', 'General', 'Neck', 'HEENT', 'Respiratory', 'Cardiovascular', 'Gastrointestinal', 'Musculoskeletal', 'Neurological', 'Integumentary', 'Psychiatric'];
  const cap = ctx.verbosity === 'CONCISE' ? 1 : ctx.verbosity === 'DETAILED' ? 20 : 4;
  const vitals: Block[] = [...measured].map(([label, piece]) => ({ label, pieces: [piece], bullet: true }));
  return [...vitals, ...order.filter((k) => bySystem.has(k)).map((k) => ({ label: k, pieces: bySystem.get(k)!.slice(0, cap), bullet: true }))];
}

export const RESULT_CUE =
  /\b(x-ray|xray|x-rays|mri|ct scan|cat scan|labs?|lab work|blood work|bloodwork|a1c|results?|ekg|ecg|echo|echocardiogram|ultrasound|showed|shows|came back|hemoglobin|ejection fraction|cholesterol (?:was|is)|lipid|panel|urinalysis|culture|biopsy|stress test|pft|spirometry|creatinine|kidney function|thyroid (?:level|test)|tsh|vitamin d level|psa)\b/i;
// "I am ordering a basic metabolic panel today": an order is the plan, not a result (a browser trial, 3 Dec).
const FUTURE = /\b((?:re)?check (?:a|an|the|your|some)|order(?:ing)?|(?:i'm|i am|we're|we are) (?:checking|getting|sending|repeating)|going to (?:get|order|check|send|do|repeat)|want to (?:get|order|check)|we'll (?:get|check|do|order)|will (?:get|order|check|repeat)|schedule|let's get|i'd like to get|would like to (?:get|order))\b/i;

export function resultPieces(ctx: NoteContext): Piece[] {
  const { analysis } = ctx;
  const out: Piece[] = [];
  for (const s of analysis.sentences.slice(Math.min(analysis.examStart, analysis.planStart))) {
    if (s.role !== 'CLINICIAN' || s.question || !RESULT_CUE.test(s.text) || FUTURE.test(s.text) || /^(?:hey,? dragon,? )?show me\b/i.test(s.text)) continue;
    // A dictated assessment or plan names what is to be done, not what was found.
    if (splitDictated(s.text).some((c) => c.label)) continue;
    if (!/\b(normal|abnormal|showed|shows|show|elevated|high|low|negative|positive|revealed|demonstrat\w*|consistent|fracture|no evidence|unremarkable|within|was \d|is \d|at \d|\d)\b/i.test(s.text)) continue;
    let t = stripFiller(s.text).replace(/\b(hey,? dragon,?|show me the [a-z0-9 -]+?(?=\.|,|$))/gi, '').replace(/^[,. ]+/, '');
    t = t.replace(/^(so|and|now|um|okay|alright),?\s+/i, '').replace(/\bin reviewing (the )?results of your\b/i, 'Review of the');
    if (t.split(' ').length < 3) continue;
    out.push({ text: finishSentence(clinicianToNote(t, analysis.sex)), src: [s.tid] });
  }
  const cap = ctx.verbosity === 'CONCISE' ? 2 : ctx.verbosity === 'DETAILED' ? 20 : 6;
  return out.slice(0, cap);
}
