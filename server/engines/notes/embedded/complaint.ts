/** The chief complaint: what the visit was booked for, the clinician's framing, the body part it opened on, or the first problem. */
import { conditionMentions, type Analysis } from './analyze';
import type { NoteContext } from './compose';
import { tokenize } from './lexicon';
import { listJoin } from './history';
import type { Problem } from './plan';

export interface Complaint { text: string; src: string[]; bodyPart?: boolean }

/** The complaint as stated before any problem is worked out: booked, framed by the clinician, or a painful body part. */
export function statedComplaint(ctx: NoteContext): Complaint | undefined {
  const { analysis, req } = ctx;
  if (req.visit?.chief_complaint) return { text: req.visit.chief_complaint, src: [] };
  // The clinician's framing ("presents for …", "here for …") names the visit reason best.
  for (const s of analysis.sentences.slice(0, Math.max(analysis.examStart, 1))) {
    if (s.role !== 'CLINICIAN') continue;
    const m =
      /\bchief complaint (?:is|of) (?:(?:her|his|their|an?|the) )?([a-z0-9' -]{3,40}?)(?:\.|,|$| and | today| that| which)/i.exec(s.text) ??
      /\b(?:presents?|presenting|here|here to establish care|coming in|came in|in today) (?:today,? )?(?:for|with) (?:(?:her|his|their|your|an?|the) )?([a-z0-9' -]{3,60}?)(?:\.|,|$| and | today| that| which)/i.exec(s.text) ??
      /\b(?:we are|we're|i am|i'm) (?:here )?follow(?:ing)?(?: |-)up (?:on|for|of) (?:(?:her|his|their|your|an?|the) )?([a-z0-9' -]{3,60}?)(?:\.|,|$| and | today| that| which)/i.exec(s.text);
    if (m && !/^(a |the )?(visit|check|follow|appointment|evaluation)$/i.test(m[1])) return { text: listOfReasons(m[1]), src: [s.tid] };
  }
  const part = bodyPartComplaint(analysis);
  if (part) return { ...part, bodyPart: true };
  // The clinician opens on what was reported ("looks like you've been having some difficulty swallowing").
  for (const s of analysis.sentences.filter((x) => x.role === 'CLINICIAN' && x.turn < 3 && x.i < Math.max(analysis.examStart, 1))) {
    const cue = /\b(?:having|experiencing|complaining of|dealing with|suffering from|struggling with)\b/.exec(s.text);
    if (!cue) continue;
    const at = s.tokens.length - tokenize(s.text.slice(cue.index)).length;
    const m = conditionMentions(s).find((x) => x.start >= at && x.start - at <= 4 && !x.negated && !x.family && !/^[ZWT]/.test(x.code));
    if (m) return { text: m.surface, src: [s.tid] };
  }
  return undefined;
}

/** Else the first condition the patient raised, or the first problem of the plan. */
export function complaintFromProblems(analysis: Analysis, problems: Problem[]): Complaint | undefined {
  const opening = analysis.sentences.slice(0, Math.max(analysis.examStart, 1));
  const patientFirst = opening
    .filter((s) => s.role === 'PATIENT' && !s.question)
    .flatMap((s) => conditionMentions(s))
    .find((m) => !m.negated && !m.family && !/^[ZWT]/.test(m.code) && !/^(E11|I10|E78|F3|F41)/.test(m.code));
  if (patientFirst) return { text: patientFirst.surface, src: [patientFirst.sentence.tid] };
  const same = (code: string, p: Problem) => p.code === code || p.code.slice(0, 3) === code.slice(0, 3);
  const first = opening.flatMap((s) => conditionMentions(s)).find((m) => !m.negated && !m.family && !/^Z(?!00)/.test(m.code) && problems.some((p) => same(m.code, p)));
  const p = first ? problems.find((pr) => same(first.code, pr)) : problems[0];
  if (!p) return undefined;
  return { text: p.name, src: first ? [first.sentence.tid] : p.mentions.slice(0, 1).map((m) => m.sentence.tid) };
}

/**
 * A chief complaint of pain or injury in a body part, for visits that open on it ("you hurt your left
 * ankle", "my big toe hurts") without naming a condition the lexicon knows.
 */
const PART = "(big toe|great toe|toes?|knees?|ankles?|foot|feet|hips?|shoulders?|elbows?|wrists?|hands?|fingers?|thumbs?|heels?|lower back|back|neck|legs?|arms?)";
const SIDE = '(?:(right|left|both|bilateral) )?';
const INJURED = new RegExp(`\\b(?:hurt|injured|twisted|sprained|problems? with|going on with|pain (?:in|on)) (?:(?:my|your|the|both|both of) )+${SIDE}${PART}\\b`, 'i');
const HURTS = new RegExp(`\\b(?:my|your) ${SIDE}${PART} (?:hurts?|is hurting|has been hurting|is (?:\\w+ )?(?:sore|killing|bothering))\\b`, 'i');
// The opening exchange states why the patient came; a body part raised later is a side issue.
const OPENING_TURNS = 8;

const singular = (part: string) => part.replace(/^feet$/, 'foot').replace(/s$/, '');

export function bodyPartComplaint(analysis: Analysis): { text: string; src: string[] } | undefined {
  const opening = analysis.sentences.filter((s) => s.turn < OPENING_TURNS && s.i < Math.max(analysis.examStart, 1));
  for (const s of opening) {
    const m = INJURED.exec(s.text) ?? HURTS.exec(s.text);
    if (!m) continue;
    const part = singular(m[2].toLowerCase());
    // The side may be said on its own later in the opening ("which knee?" "my right knee").
    const sides = new Set<string>();
    for (const o of opening) {
      for (const x of o.text.toLowerCase().matchAll(new RegExp(`\\b(right|left|both(?: (?:of )?(?:my|your))?) ${PART}`, 'g')))
        if (singular(x[2]) === part) sides.add(x[1].startsWith('both') ? 'bilateral' : x[1]);
    }
    if (m[1]) sides.add(/both|bilateral/i.test(m[1]) ? 'bilateral' : m[1].toLowerCase());
    // Right and left both named without "both" may be a comparison ("the left one is fine"): no side then.
    const side = sides.has('bilateral') ? 'bilateral ' : sides.size === 1 ? `${[...sides][0]} ` : '';
    return { text: `${side}${part} pain`, src: [s.tid] };
  }
  return undefined;
}

/** "blood pressure your diabetes" (a list said without its commas, a browser trial of 3 Dec) is "blood pressure and diabetes". */
function listOfReasons(said: string): string {
  // Not after a preposition: "routine follow-up of his chronic problems" is one reason.
  return listJoin(said.split(/(?<!\b(?:of|for|on|with|to|about|in|up|from)),?\s+(?:your|her|his|their|my)\s+/i).filter(Boolean));
}
