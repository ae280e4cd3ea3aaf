/**
 * A painful part the plan takes up with only a possible diagnosis ("what I'm concerned about for your knee is it sounds
 * like you have a torn MCL", "for that right knee, I think you may have a ligament strain"): until a diagnosis is
 * established the outpatient code is the symptom (ICD-10-CM guidelines, section IV.H), and scribes head the problem
 * "Right knee pain". A diagnosis said without doubt is left to the lexicon, even one it does not know.
 */
import { conditionMentions, type Sentence } from './analyze';
import { conditionMatcher, tokenize } from './lexicon';

const partWord = (part: string) => part.replace(/^lower /, '');

const PART = '(knee|shoulder|hip|ankle|elbow|wrist|hand|foot|leg|arm|lower back|back|neck)';
const TAKEN_UP = new RegExp(`\\b(?:for|about|with|regarding) (?:your|the|that|this|her|his) (?:(right|left) )?${PART}\\b`, 'g');
// Doubt about what the part has, said near it: "may have", "could be", "possibly", "concerned about", "sounds like".
const UNSURE = /\b(?:(?:may|might|could) (?:have|be)(?! (?:to|able|helpful|good|great|better|best|worth|useful|needed|necessary|ready|time|fine|okay|easier|harder)\b)|possibl[ey]|concerned (?:about|that|for|it)|worried (?:about|that|it)|sounds like|suspect|not sure|rule out)\b/;
const HURTS = /\b(?:pain|painful|hurts?|hurting|sore|aches?|aching)\b/;
const NEGATION = /\b(?:no|not|denies|denied|without|don't|doesn't|didn't|never)\b/;
// A diagnosis coded at the part (a foot ulcer at the foot, a disc or strain at the back) already heads the problem.
const SPINE = /^(?:M4[0-9]|M5[0-3]|M54\.1|S1[36]|S3[239])/;
const SYMPTOM = /^(?:R|M25\.[56]|M54\.[25]|M79\.6)/;
const explained = (coded: Array<{ code: string; description: string }>, part: string) =>
  coded.some((d) => !SYMPTOM.test(d.code) && ((/back|neck/.test(part) && SPINE.test(d.code)) || new RegExp(`\\b${partWord(part)}`).test(d.description.toLowerCase())));

/** Said by anyone without a denial: the part and a word of pain within a few words of each other. */
function painAt(sentences: Sentence[], part: string): boolean {
  const word = partWord(part);
  return sentences.some((s) =>
    s.tokens.some((t, k) => {
      if (t.replace(/s$/, '') !== word) return false;
      const near = s.tokens.slice(Math.max(0, k - 6), k + 7).join(' ');
      return HURTS.test(near) && !NEGATION.test(near);
    }),
  );
}

/** The side the visit gives the part when it gives only one. */
function sideOf(sentences: Sentence[], part: string): string | undefined {
  const word = partWord(part);
  const sides = new Set(sentences.flatMap((s) => s.tokens.flatMap((t, k) => (/^(?:right|left)$/.test(t) && s.tokens[k + 1]?.replace(/s$/, '') === word ? [t] : []))));
  return sides.size === 1 ? [...sides][0] : undefined;
}

/** The pain codes of the parts the plan takes up with a doubtful diagnosis, with the sentence that takes each up. */
export function findAssessedSitePain(sentences: Sentence[], planStart: number, coded: Array<{ code: string; description: string }>): Array<{ code: string; sentence: Sentence }> {
  const out: Array<{ code: string; sentence: Sentence }> = [];
  for (const s of sentences) {
    if (s.role !== 'CLINICIAN' || s.question || s.i < planStart) continue;
    const lower = s.tokens.join(' ');
    for (const hit of lower.matchAll(TAKEN_UP)) {
      const at = lower.slice(0, hit.index).split(' ').length - 1;
      const near = s.tokens.slice(Math.max(0, at - 12), at + 20).join(' ');
      const part = hit[2];
      if (!UNSURE.test(near) || !painAt(sentences, part)) continue;
      // A diagnosis the sentence names near the part and that is coded ("it may be arthritis") heads the problem itself.
      const named = conditionMentions(s).some((m) => !m.negated && !SYMPTOM.test(m.code) && m.end > at - 12 && m.start < at + 20 && coded.some((d) => d.code.slice(0, 3) === m.code.slice(0, 3)));
      if (named || explained(coded, part)) continue;
      const side = hit[1] ?? (/back|neck/.test(part) ? undefined : sideOf(sentences, part));
      const phrase = tokenize(`${side ?? ''} ${part} pain`);
      const m = conditionMatcher.match(phrase)[0];
      if (m && m.start === 0 && m.end === phrase.length) out.push({ code: m.id, sentence: s });
    }
  }
  return out;
}
