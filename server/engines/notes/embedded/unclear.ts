/**
 * Low-confidence words never reach the note verbatim (issue 14, DESIGN §12). Before analysis each run of
 * words below LOW_CONFIDENCE becomes one UNCLEAR marker, unless the run sounds like a code-set term (then
 * the coded term stands in for it, not the words heard). When the note is written, a marker at the edge
 * of a sentence is left out with its dangling function words; a sentence with one inside, where leaving
 * it out would change what the sentence says, is left out whole (issue 27: never printed as "[unclear]"),
 * as is a sentence that is mostly unclear. What was left out is listed for the review before signing.
 */
import { isLowConfidence } from '@/lib/transcript/confidence';
import type { TranscriptLine } from '../types';
import { PhraseMatcher, conditionMatcher, drugMatcher, orderableMatcher, tokenize } from './lexicon';
import { soundMatch, type SoundTerm } from './soundalike';

export const UNCLEAR = 'UNCLEARSPAN';
const MARK = /\bUNCLEARSPAN\b/i;

/** Replaces a run of low-confidence words by the terms it sounds like and UNCLEAR markers for the rest. */
function recoverRun(run: string[], context: SoundTerm[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < run.length; ) {
    let hit: { term: string; len: number } | undefined;
    for (let len = Math.min(4, run.length - i); len >= 1 && !hit; len--) {
      const t = soundMatch(run.slice(i, i + len), context, true);
      if (t) hit = { term: t.term, len };
    }
    if (hit) {
      out.push(hit.term);
      i += hit.len;
    } else {
      if (out.at(-1) !== UNCLEAR) out.push(UNCLEAR);
      i++;
    }
  }
  return out;
}

/**
 * Confident words can be confidently wrong ("listen a pill" for a lisinopril the EMR lists); spans of two
 * to four of them are replaced only by a term of the session's context that they sound very close to.
 */
function recoverConfident(words: string[], context: SoundTerm[]): string[] {
  if (!context.length) return words;
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    let hit: { term: string; len: number } | undefined;
    for (let len = Math.min(4, words.length - i); len >= 2 && !hit; len--) {
      const span = words.slice(i, i + len);
      const t = span.every((w) => /^[a-z']+$/i.test(w)) ? soundMatch(span, context, false, CONFIDENT_DISTANCE) : undefined;
      if (t) hit = { term: t.term, len };
    }
    out.push(hit ? hit.term : words[i]);
    i += hit ? hit.len : 1;
  }
  return out;
}
const CONFIDENT_DISTANCE = 0.25;

/** The text the note is written from: low-confidence runs recovered as terms or marked UNCLEAR. */
export function trustedText(line: TranscriptLine, context: SoundTerm[]): string {
  const words = line.words?.length ? line.words : undefined;
  if (!words) {
    const heard = line.text.split(/\s+/).filter(Boolean);
    if (isLowConfidence(line.confidence)) return recoverRun(heard, context).join(' ');
    return context.length ? recoverConfident(heard, context).join(' ') : line.text;
  }
  if (!words.some((w) => isLowConfidence(w.confidence)) && !context.length) return line.text;
  // Confidences are put on the entry's own tokens, so its punctuation (sentence ends) survives.
  const tokens = completeTerms(alignWords(line.text, words) ?? words.map((w) => ({ text: w.text, low: isLowConfidence(w.confidence) })));
  const out: string[] = [];
  let run: string[] = [];
  let runTail = '';
  let sure: string[] = [];
  const flushRun = () => {
    if (!run.length) return;
    out.push(...recoverRun(run, context));
    if (runTail) out[out.length - 1] += runTail;
    run = [];
    runTail = '';
  };
  // An unsure function word alone between sure words is kept as heard; within a longer unsure run it may be part of a
  // misheard term ("met for men"), so the run goes to the sound-alike recovery whole.
  const alone = (k: number) => FUNCTION_WORD.has(core(tokens[k]!.text)) && !tokens[k - 1]?.low && !tokens[k + 1]?.low;
  for (const [k, t] of tokens.entries()) {
    if (t.low && !alone(k)) {
      out.push(...recoverConfident(sure, context));
      sure = [];
      run.push(t.text.replace(/[^\w']+$/, ''));
      runTail = /[.?!,;:]+$/.exec(t.text)?.[0] ?? '';
    } else {
      flushRun();
      sure.push(t.text);
    }
  }
  flushRun();
  out.push(...recoverConfident(sure, context));
  return out.join(' ');
}

const core = (w: string) => w.toLowerCase().replace(/[^a-z0-9']/g, '');

// Multi-word terms of the code sets: tests, conditions, drugs.
const terms = new PhraseMatcher([
  ...orderableMatcher.entries(),
  ...conditionMatcher.entries(),
  ...drugMatcher.entries(),
]);

/**
 * An unsure word that completes, with at least two sure words, a term of the code sets exactly ("basic metabolic
 * [panel]", a recorded visit of issue 27, where the unsure "panel" cost the BMP order) is taken as heard: the sure
 * words all but name it, and the recogniser's doubt is about a word its language model already expected.
 */
function completeTerms(tokens: Array<{ text: string; low: boolean }>): Array<{ text: string; low: boolean }> {
  if (!tokens.some((t) => t.low)) return tokens;
  const out = tokens.map((t) => ({ ...t }));
  for (const m of terms.match(tokens.map((t) => core(t.text)))) {
    const span = out.slice(m.start, m.end);
    if (span.filter((t) => t.low).length === 1 && span.filter((t) => !t.low).length >= 2) for (const t of span) t.low = false;
  }
  return out;
}

/**
 * Closed-class words that state no fact by themselves: heard unsure, they are kept as heard rather than leaving out
 * the sentence around them (most unsure words from natural-voice audio are these: "a", "to", "that", "on", issue 27).
 * Never a negation, a pronoun (who did it), a number, a side or a unit: those are facts.
 */
const FUNCTION_WORD = new Set(['a', 'an', 'the', 'to', 'of', 'on', 'in', 'at', 'for', 'with', 'from', 'by', 'as', 'and', 'but', 'or', 'so', 'then', 'that', 'this', 'these', 'those', 'it', 'is', 'am', 'are', 'was', 'were', 'be', 'been', 'being', 'has', 'have', 'had', 'do', 'does', 'did', 'all', 'up', 'there', 'just', 'also', 'well', 'if', 'um', 'uh', 'okay']);

/** The entry's tokens, each marked low when the word aligned to it was; undefined when they do not line up. */
function alignWords(text: string, words: NonNullable<TranscriptLine['words']>): Array<{ text: string; low: boolean }> | undefined {
  const out: Array<{ text: string; low: boolean }> = [];
  let j = 0;
  let matched = 0;
  for (const tok of text.split(/\s+/).filter(Boolean)) {
    let low = false;
    for (let k = j; k < Math.min(words.length, j + 3); k++) {
      if (core(words[k].text) === core(tok)) {
        low = isLowConfidence(words[k].confidence);
        j = k + 1;
        matched++;
        break;
      }
    }
    out.push({ text: tok, low });
  }
  return matched >= words.length * 0.8 ? out : undefined;
}

const EDGE_FILLER = /^(?:and|but|so|or|then|the|a|an|of|to|with|in|on|for|at|that|which|because|,)$/i;
/** Edge fillers that open a clause of their own: what follows them is a whole clause. */
const CLAUSE_START = /^(?:and|but|so|or|then|because)$/i;
// Words that leave a sentence unfinished when what followed them is cut ("the patient reports …").
// "Their blood pressure is also …" (issue 27, a recorded visit): a degree word or a linking verb waits for its complement too.
const DANGLING = /^(?:reports?|is|are|was|were|has|have|had|takes?|taking|denies|start|started|starting|prescribe|continue|increase|decrease|order|check|get|about|of|to|with|for|on|in|at|the|a|an|and|or|but|no|not|his|her|their|my|your|also|very|more|less|too|quite|really|pretty|be|been|being|feel|feels|felt|seem|seems|look|looks|become|becoming|getting|than|like)$/i;
const DETERMINER = /^(?:the|a|an|this|that|these|those|some|any|his|her|their|my|your|our)$/i;
const bare = (t: string) => t.replace(/[,;]$/, '');
/** A head that stops before its sentence is done: on a word waiting for more, or inside a noun phrase ("check a hemoglobin a one …"). */
const unfinished = (head: string[]) => !head.length || waits(head.at(-1)!) || head.slice(-2).some((t) => DETERMINER.test(bare(t)));
// A number before an unsure span waits for its unit ("see you back in 3 [months]", a recorded visit of issue 27).
const NUMBER = /^(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand)$/i;
const waits = (t: string) => DANGLING.test(bare(t)) || NUMBER.test(bare(t));

/** Tokens as a sentence: capitalised, a trailing comma dropped, ended with the original end mark or a period. */
function asSentence(toks: string[], end: string): string {
  const text = toks.join(' ').replace(/[,;]$/, '');
  return `${text.replace(/^([a-z])/, (c) => c.toUpperCase())}${end || '.'}`;
}

/** A sentence of the note with its UNCLEAR markers resolved; '' when too little of it is clear. */
export function resolveUnclear(sentence: string): string {
  if (!MARK.test(sentence)) return sentence;
  const end = /[.!?]$/.test(sentence.trim()) ? sentence.trim().slice(-1) : '';
  let toks = sentence.trim().replace(/[.!?]$/, '').split(/\s+/).map((t) => (MARK.test(t) ? UNCLEAR : t));
  toks = toks.filter((t, i) => !(t === UNCLEAR && toks[i - 1] === UNCLEAR));
  /** Whether the sentence began unsure and what is left starts in the middle of that clause, not at a new one. */
  let headless = false;
  const strip = (from: 'start' | 'end') => {
    const at = () => (from === 'start' ? 0 : toks.length - 1);
    if (toks[at()]?.replace(/[,;]$/, '') !== UNCLEAR) return;
    const neighbour = from === 'start' ? toks[1] : toks.at(-2);
    if (from === 'end' && neighbour && waits(neighbour)) return;
    const boundary = from === 'start' && /[,;]$/.test(toks[0]!);
    toks = from === 'start' ? toks.slice(1) : toks.slice(0, -1);
    let newClause = boundary;
    while (toks.length && EDGE_FILLER.test(toks[at()].replace(/[,;]$/, ''))) {
      newClause ||= from === 'start' && CLAUSE_START.test(bare(toks[0]!));
      toks = from === 'start' ? toks.slice(1) : toks.slice(0, -1);
    }
    if (from === 'start') headless = !newClause;
  };
  strip('start');
  strip('end');
  const clear = toks.filter((t) => t !== UNCLEAR && !/^\W+$/.test(t));
  const unclear = toks.length - clear.length;
  if (clear.length < 3) return '';
  // The tail of a clause whose start was not heard ("[it's been a gets hot] already cause right away", a recorded
  // knee visit) is no sentence: it stands only when it is as long as the clear prefix a sentence needs.
  if (headless && !unclear && clear.length < 5) return '';
  if (unclear > 0) return (salvageTestOrder(toks, end) || [clearPrefix(toks), salvageAction(toks, end) || salvageClause(toks, end)].filter(Boolean).join(' ')).replace(/^([a-z])/, (c) => c.toUpperCase()).replace(/([^.!?])$/, `$1${end || '.'}`);
  return asSentence(toks, end);
}

/**
 * What was said before the first unsure span, when it stands as a sentence of at least five words that
 * does not stop short ("the headaches started …" does not). When it does, the clauses before the last
 * clause break still stand: "I think your diabetes is not well controlled" of "… and your blood pressure is also …".
 */
function clearPrefix(toks: string[]): string {
  let head = trimEnd(toks.slice(0, toks.indexOf(UNCLEAR)));
  if (unfinished(head)) head = trimEnd(head.slice(0, lastClauseBreak(head)));
  if (head.length < 5 || unfinished(head) || /^(?:started|began|since|about|around|like|when|while|if|than|until|after|before|because|as|by|from|into|onto|over|under|up|down|out|off|through|across|along|around)$/i.test(head.at(-1)!)) return '';
  return `${head.join(' ').replace(/[,;]$/, '')}.`;
}

function trimEnd(head: string[]): string[] {
  let h = head;
  while (h.length && EDGE_FILLER.test(bare(h.at(-1)!))) h = h.slice(0, -1);
  return h;
}

// "…, and their …", "… but i …": where a new clause with its own subject starts.
const SUBJECT = /^(?:their|his|her|your|my|our|the|we|i|you|he|she|they|it|patient's)$/i;
function lastClauseBreak(head: string[]): number {
  for (let k = head.length - 2; k > 0; k--) if (/^(?:and|but|so)$/i.test(bare(head[k])) && (SUBJECT.test(bare(head[k + 1])) || /,$/.test(head[k - 1]))) return k;
  return 0;
}

// Verbs that order a test: what they order after an unsure span is still ordered.
const TEST_VERB = /^(?:check|order|get|draw|repeat|recheck)$/i;
const NEGATION = /^(?:no|not|don't|didn't|won't|never|hold|without|skip)$/i;

/**
 * "We will check a hemoglobin a one UNCLEAR the basic metabolic panel today": the test named whole after the span
 * is still ordered by the verb before it, so "We will check the basic metabolic panel today." stands; the span and
 * the words it cut stay out (and are listed for the review). Only a test of the orderables table, after a determiner, is taken.
 */
function salvageTestOrder(toks: string[], end: string): string {
  const head = toks.slice(0, toks.indexOf(UNCLEAR));
  const verb = head.findLastIndex((t) => TEST_VERB.test(bare(t)));
  if (verb < 0 || head.slice(0, verb).some((t) => NEGATION.test(bare(t)))) return '';
  let tail = toks.slice(toks.lastIndexOf(UNCLEAR) + 1);
  while (tail.length && /^(?:and|or|also)$/i.test(bare(tail[0]))) tail = tail.slice(1);
  if (!tail.length || !/^(?:the|a|an)$/i.test(bare(tail[0]))) return '';
  if (orderableMatcher.match(tokenize(tail.slice(1).join(' ')))[0]?.start !== 0) return '';
  return asSentence([...head.slice(0, verb + 1), ...tail], end);
}

// A clause that stands on its own after an unsure span: an instruction or plan action said in full.
const ACTION_START = /^(?:check|start|continue|stop|order|increase|decrease|refer|schedule|repeat|recheck|follow|return|come|we|i)$/i;

/**
 * "Plan UNCLEAR lisinopril check a basic metabolic panel and follow up in 4 weeks": the words after the last
 * unsure span are kept when they begin a complete action ("check a basic metabolic panel and follow up …");
 * anything that leans on the unsure words ("UNCLEAR weeks ago after a fall") is left out.
 */
function salvageAction(toks: string[], end: string): string {
  const last = toks.lastIndexOf(UNCLEAR);
  let tail = toks.slice(last + 1);
  while (tail.length && EDGE_FILLER.test(tail[0].replace(/[,;]$/, ''))) tail = tail.slice(1);
  const at = tail.findIndex((t) => ACTION_START.test(t.replace(/[,;]$/, '')));
  // The action must start the clause or follow a single word the unsure span cut off (a drug name, "plan").
  if (at < 0 || at > 1) return '';
  tail = tail.slice(at);
  if (tail.length < 4 || (/^(?:we|i)$/i.test(tail[0]) && !/^(?:will|would|want|am|are|need|plan|'ll)$/i.test(tail[1] ?? ''))) return '';
  return asSentence(tail, end);
}

const CLAUSE_VERB =
  /^(?:is|are|was|were|am|be|been|being|has|have|had|will|would|can|could|should|may|might|must|do|does|did|\w+'(?:s|re|ve|ll|d)|\w+(?:ed|ing)|take|takes|feel|feels|get|gets|go|goes|need|needs|want|wants|start|starts|continue|continues|stop|stops|come|comes|see|sees|keep|keeps|use|uses|check|checks|eat|eats|work|works|hurt|hurts|look|looks|seem|seems|sleep|sleeps|walk|walks|run|runs|say|says|think|thinks|know|knows|live|lives|drink|drinks|smoke|smokes)$/i;

/**
 * "… running high UNCLEAR hundred in the mornings and the patient has been thirsty": a clause after the last unsure
 * span that has its own subject and is said in full stands on its own; it does not lean on the span.
 */
function salvageClause(toks: string[], end: string): string {
  const tail = toks.slice(toks.lastIndexOf(UNCLEAR) + 1);
  const k = tail.findIndex((t, i) => i + 1 < tail.length && /^(?:and|but|so)$/i.test(bare(t)) && SUBJECT.test(bare(tail[i + 1])));
  const clause = k < 0 ? [] : tail.slice(k + 1);
  // "… and the basic metabolic panel today" (its verb was the unsure "ordering", a recorded visit) is a noun phrase, no clause.
  if (clause.length < 4 || unfinished(clause) || !clause.some((t) => CLAUSE_VERB.test(bare(t)))) return '';
  return asSentence(clause, end);
}

/** A sentence as heard, its unsure spans shown as "[unclear]": how the review step lists what was left out. */
export function showUnclear(sentence: string): string {
  return sentence.replace(/\bUNCLEARSPAN\b(?:\s+UNCLEARSPAN\b)*/gi, '[unclear]');
}

export function hasUnclear(text: string | null | undefined): boolean {
  return !!text && MARK.test(text);
}
