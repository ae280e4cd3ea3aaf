/**
 * A chief complaint of pain or injury in a body part, for visits that open on it ("you hurt your left
 * ankle", "my big toe hurts") without naming a condition the lexicon knows.
 */
import type { Analysis } from './analyze';

const PART = "(big toe|great toe|toes?|knees?|ankles?|foot|feet|hips?|shoulders?|elbows?|wrists?|hands?|fingers?|thumbs?|heels?|lower back|back|neck|legs?|arms?)";
const SIDE = '(?:(right|left|both|bilateral) )?';
const INJURED = new RegExp(`\\b(?:hurt|injured|twisted|sprained|problems? with|going on with|pain (?:in|on)) (?:(?:my|your|the|both|both of) )+${SIDE}${PART}\\b`, 'i');
const HURTS = new RegExp(`\\b(?:my|your) ${SIDE}${PART} (?:hurts?|is hurting|has been hurting|is (?:\\w+ )?(?:sore|killing|bothering))\\b`, 'i');
// The opening exchange states why the patient came; a body part raised later is a side issue.
const OPENING_TURNS = 8;

const singular = (part: string) => part.replace(/^feet$/, 'foot').replace(/s$/, '');

export function bodyPartComplaint(a: Analysis): { text: string; src: string[] } | undefined {
  const opening = a.sentences.filter((s) => s.turn < OPENING_TURNS && s.i < Math.max(a.examStart, 1));
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
