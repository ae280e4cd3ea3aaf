/**
 * Lab and imaging orders for structured data (issue 29 item 2): "check a basic metabolic panel", "get a chest
 * x-ray", "A1c in three months". Each is coded with LOINC from the curated orderables table
 * (server/codesets/orderables.ts); an imaging or lab order the table does not name is kept as the words said,
 * with no code. Only what the clinician orders counts: results talk ("your A1c was 7.2"), questions and
 * orders said not to be needed are not orders.
 */
import type { ServiceOrder } from '../types';
import { IMAGING_WORDS, LAB_WORDS, ORDERABLES } from '@/server/codesets/orderables';
import type { NoteContext } from './compose';
import { PhraseMatcher, tokenize } from './lexicon';
import { wordsToDigits } from './text';

const matcher = new PhraseMatcher(ORDERABLES.flatMap((o) => o.aliases.map((a) => [o.code, a] as [string, string])));
const byCode = new Map(ORDERABLES.map((o) => [o.code, o]));

const ORDER_VERB =
  /\b(check|checking|order|ordering|ordered|get|getting|obtain|obtaining|draw|drawing|run|send (?:you )?(?:for|out)|repeat|recheck|re-check|schedule|scheduling|do|doing|want you to have|have you (?:get|do|go)|go ahead and (?:get|do|order|check)|like to (?:get|check|order|do|see)|need (?:a|an|to get|to check)|would like|recommend)\b/i;
const NOT_NEEDED = /\b(no need (?:for|to)|don't need|do not need|not going to (?:order|get|check)|won't (?:order|need|get)|hold off on|didn't|did not|already had|already did)\b/i;
// Results talk about a test already done: "the x-ray showed", "your A1c was 7.2", "we did a CBC".
const PAST = /\b(came back|showed|shows|revealed|reviewed|looked at|we did|we had|you had|you've had|you have had|(?:was|were|is|are) (?:normal|abnormal|elevated|high|low|fine|good|okay|stable|negative|positive|\d)|results? (?:of|from|show)|last (?:one|time|visit))\b/i;
const TIMING =
  /\b(?:in|within|after) (?:the next |another )?(?:\d+|a|one|two|three|four|five|six|eight|ten|twelve|a couple of|a few) (?:days?|weeks?|months?|years?)\b|\b(?:before|prior to) (?:your|the|her|his) next (?:visit|appointment)\b|\b(?:today|this week|next week|at your next visit|before you leave|every (?:three|six|\d+) months)\b/i;
const GENERIC_ONLY = /^(?:labs?|blood work|bloodwork|blood tests?|some labs|tests?|levels?)$/i;

/** The clause of a sentence an order sits in: orders are often listed ("increase …, continue …, and check a BMP"). */
function clauses(text: string): string[] {
  return text.split(/[.;]\s+|,\s*(?:and\s+)?(?=(?:continue|start|stop|check|increase|decrease|order|get|refer|add|hold|recheck|repeat|discontinue|we'll|we will|i'll|i will)\b)/i).filter(Boolean);
}

function timingOf(clause: string): string | null {
  return TIMING.exec(wordsToDigits(clause))?.[0] ?? null;
}

/** Orders in one clause: table matches coded, else an imaging or lab phrase kept as text. */
function ordersIn(clause: string, ordering: boolean): ServiceOrder[] {
  const toks = tokenize(clause);
  const hits = matcher.match(toks);
  const out: ServiceOrder[] = [];
  for (const h of hits) {
    const o = byCode.get(h.id)!;
    out.push({ name: o.aliases[0], category: o.category, code: { code: o.code, type: 'LOINC', display: o.display }, timing: timingOf(clause) });
  }
  if (out.length || !ordering) return out;
  // Not in the table: "an x-ray of your right knee" is still an imaging order, kept as said.
  const img = IMAGING_WORDS.exec(clause);
  if (img) {
    const phrase = orderPhrase(clause, img.index);
    if (phrase) out.push({ name: phrase, category: 'IMAGING', code: null, timing: timingOf(clause) });
    return out;
  }
  const lab = LAB_WORDS.exec(clause);
  if (lab) {
    const phrase = orderPhrase(clause, lab.index);
    if (phrase && !GENERIC_ONLY.test(phrase)) out.push({ name: phrase, category: 'LAB', code: null, timing: timingOf(clause) });
  }
  return out;
}

/** The noun phrase around the order word, from after the verb and article to the clause's end or timing. */
function orderPhrase(clause: string, at: number): string {
  const verb = [...clause.slice(0, at).matchAll(new RegExp(ORDER_VERB.source, 'gi'))].at(-1);
  const start = verb ? verb.index! + verb[0].length : Math.max(0, clause.lastIndexOf(' ', Math.max(0, at - 20)));
  let phrase = clause.slice(start).replace(TIMING, '').replace(/\b(?:for|to|so|and|because|just|since|which|that)\b.*$/i, '');
  phrase = phrase.replace(/^[\s,]*(?:(?:a|an|the|some|you|your|her|his|another|new|repeat|up|on)\s+)*/i, '').replace(/[\s,.!?]+$/, '').trim();
  return phrase.split(' ').length <= 8 ? phrase.toLowerCase() : '';
}

/**
 * The orders of the visit: clinician sentences that order (an order verb, or the dictated plan's bare
 * "A1c in three months"), one order per orderable, the first time said with the timing said with it.
 */
export function serviceOrders(ctx: NoteContext): ServiceOrder[] {
  const { a } = ctx;
  const out = new Map<string, ServiceOrder>();
  for (const s of a.sentences) {
    if (s.role !== 'CLINICIAN' || s.question) continue;
    for (const clause of clauses(s.text)) {
      if (NOT_NEEDED.test(clause)) continue;
      const verb = ORDER_VERB.test(clause) && !PAST.test(clause);
      // "A1c in three months." in the plan talk orders it without a verb.
      const dictated = s.i >= a.planStart && TIMING.test(wordsToDigits(clause)) && clause.split(' ').length <= 8;
      if (!verb && !dictated) continue;
      for (const o of ordersIn(clause, verb)) {
        const k = o.code ? o.code.code : `TEXT:${o.name}`;
        const prev = out.get(k);
        if (prev) {
          prev.timing ??= o.timing;
          prev.source_transcripts = [...new Set([...(prev.source_transcripts ?? []), s.tid])];
        } else out.set(k, { ...o, source_transcripts: [s.tid] });
      }
    }
  }
  return [...out.values()];
}
