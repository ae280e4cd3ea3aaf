/**
 * A diagnosis the clinician leaves open: a differential not settled ("it's either a muscle strain or a herniated disc, and
 * the MRI will tell us", "it might be a kidney stone, it might be appendicitis") or a possibility named and then doubted
 * ("it could be lupus, but that's unlikely"), or one the sentence settles against ("a migraine or a tension headache,
 * probably a migraine"). Outpatient ICD-10-CM codes a diagnosis only once it is established; until
 * then the symptom is what is coded, so none of the possibilities is.
 */
import { conditionMatcher, tokenize, type Match } from './lexicon';

// The words that leave it open, said before the first of the possibilities (or between two of them).
const OPEN = /\b(?:(?:could|might|may) (?:be|have|represent|call it)|possibly|possible|maybe|perhaps|either|not sure (?:if|whether)|(?:hard|too early|difficult) to (?:say|tell)|whether|(?:think|thinking) about|considering|chances? (?:that|it's|this is|it is)?|(?:a few|several|some|two|a couple of) (?:things|possibilities|options|causes))\b/;
// Between two possibilities: "or", "or maybe", "or it could be", "versus", and "it might be X, it might be Y".
const FILLER = new Set(['or', 'versus', 'vs', 'maybe', 'possibly', 'perhaps', 'even', 'it', "it's", 'this', 'that', 'could', 'might', 'may', 'be', 'is', 'a', 'an', 'the', 'some', 'just', 'also', 'something', 'like']);
const joins = (gap: string[]) =>
  gap.length <= 6 && gap.every((t) => FILLER.has(t)) && (gap.some((t) => /^(?:or|versus|vs)$/.test(t)) || /\b(?:could|might|may) be\b/.test(gap.join(' ')));
// The sentence settles on one ("…, but most likely a tension headache").
const SETTLED = /\b(?:most likely|more likely|probably|likely|i (?:think|believe|suspect) (?:it's|it is|this is|that it's|you have)|my (?:guess|bet) is|leaning toward|favou?r)\b/;
// The clause the possibilities are said in starts after the last of these.
const CLAUSE_BREAK = /^(?:but|so|because|since|and|then|if)$/;
// "It could be lupus, but that's unlikely", "maybe it's shingles, though I don't really think so", "some might call it
// fibromyalgia, but I wouldn't", "there's a small chance it's appendicitis, but I doubt it".
const DOUBTED_AFTER =
  /^(?:[\w'-]+\s+){0,5}?(?:but|though|although|however)\s+(?:i\s+(?:really\s+)?doubt (?:it|that|this)|(?:that|this|it)(?:'s| is| seems| would be)\s+(?:(?:very|pretty|quite|highly|really|much)\s+)?(?:unlikely|doubtful|not likely)|i\s+(?:don't|do not)\s+(?:really\s+)?(?:think|believe|suspect)\s+(?:so|that|it|this)|i\s+(?:wouldn't|would not)(?:\s+(?:call it that|say so))?(?:$|\s+(?:so|and|but)\b)|i'm not (?:too |very |that |really )?(?:worried|concerned) about (?:it|that))/;

/** A word that makes the condition after it someone's own: "your asthma". */
export const OWNER = /^(?:your|his|her|their|my)$/;
const owned = (tokens: string[], at: number) => OWNER.test(tokens[at - 1] ?? '');
const openBefore = (tokens: string[], at: number) => {
  const window = tokens.slice(Math.max(0, at - 10), at);
  const cut = window.map((t) => CLAUSE_BREAK.test(t)).lastIndexOf(true);
  return OPEN.test(window.slice(cut + 1).join(' '));
};

// "Or" said right before or after it, the other possibility however it is named ("a muscle strain or a herniated disc",
// "bronchitis or early pneumonia", "gout, or it could be an infection").
const OR_BEFORE = /\b(?:or|versus|vs)(?:\s+(?:maybe|possibly|perhaps|even|it|it's|this|that|could|might|may|be|is|a|an|the|some|just|early|mild|something like))*$/;
const OR_AFTER = /^(?:[\w'-]+\s+){0,3}?(?:or|versus|vs)\b|^(?:it|this|that)\s+(?:could|might|may)\s+(?:also\s+)?be\b/;

// Every case needs two possibilities or a doubt after one.
const TWO_SAID = /\b(?:or|versus|vs|but|though|although|however)\b|\b(?:could|might|may) be\b.*\b(?:could|might|may) be\b/;
// conditionMentions reads a sentence many times over (diagnoses.ts asks of every plan sentence for each mention): match it once.
const matched = new Map<string, Match[]>();
function sentenceMatches(said: string, tokens: string[]): Match[] {
  let ms = matched.get(said);
  if (!ms) {
    if (matched.size > 2000) matched.clear();
    matched.set(said, (ms = conditionMatcher.match(tokens)));
  }
  return ms;
}

/** Whether the last settling words of `text` name, within `within` words, another condition than `self`. */
function settlesOnAnother(text: string, self: string | undefined, within: number): boolean {
  const at = [...text.matchAll(new RegExp(SETTLED.source, 'g'))].at(-1);
  const named = at ? conditionMatcher.match(tokenize(text.slice(at.index)))[0] : undefined;
  return !!named && named.id !== self && named.start <= within;
}

/** Whether the condition at tokens [start, end) is one of possibilities the sentence leaves open, or one named and doubted. */
export function undecided(tokens: string[], start: number, end: number): boolean {
  // Most sentences name no possibility: spare them the matching below.
  const said = tokens.join(' ');
  if (owned(tokens, start) || (!OPEN.test(said) && !SETTLED.test(said)) || !TWO_SAID.test(said)) return false;
  const ms = sentenceMatches(said, tokens).filter((m) => m.end <= start || m.start >= end);
  const at = { start, end };
  // The possibilities joined to this one on either side, "X or Y or Z".
  const chain = [at];
  for (let k = ms.filter((m) => m.end <= start).length - 1, first = at; k >= 0; k--) {
    if (!joins(tokens.slice(ms[k].end, first.start)) || owned(tokens, ms[k].start)) break;
    chain.unshift((first = ms[k]));
  }
  for (let k = ms.findIndex((m) => m.start >= end), last = at; k >= 0 && k < ms.length; k++) {
    if (!joins(tokens.slice(last.end, ms[k].start)) || owned(tokens, ms[k].start)) break;
    chain.push((last = ms[k]));
  }
  const first = chain[0].start;
  const lastEnd = chain.at(-1)!.end;
  const settled = SETTLED.test(tokens.slice(lastEnd).join(' ')) || SETTLED.test(tokens.slice(Math.max(0, first - 3), first).join(' '));
  // "A migraine or a tension headache, probably a migraine": the one it settles on is the diagnosis, the others are not;
  // so with one said before ("most likely this is a viral infection, though it could be strep throat").
  const self = conditionMatcher.match(tokens.slice(start, end))[0]?.id;
  if (settled && chain.length > 1 && settlesOnAnother(tokens.slice(lastEnd).join(' '), self, Infinity)) return true;
  if (openBefore(tokens, start) && settlesOnAnother(tokens.slice(0, first).join(' '), self, 5)) return true;
  if (!settled && chain.length > 1 && (openBefore(tokens, first) || chain.slice(1).some((m, k) => /\b(?:could|might|may) be\b/.test(tokens.slice(chain[k].end, m.start).join(' '))))) return true;
  const before = tokens.slice(Math.max(0, start - 6), start).join(' ');
  if (!settled && openBefore(tokens, start) && (OR_BEFORE.test(before) || OR_AFTER.test(tokens.slice(end, end + 6).join(' ')))) return true;
  return openBefore(tokens, start) && DOUBTED_AFTER.test(tokens.slice(lastEnd, lastEnd + 14).join(' '));
}
