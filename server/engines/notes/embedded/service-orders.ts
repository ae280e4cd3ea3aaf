/**
 * Lab and imaging orders for structured data (issue 29 item 2): "check a basic metabolic panel", "get a chest
 * x-ray", "A1c in three months". Each is coded with LOINC from the curated orderables table
 * (server/codesets/orderables.ts); an imaging or lab order the table does not name is kept as the words said,
 * with no code. Only what the clinician orders counts: results talk ("your A1c was 7.2"), questions and
 * orders said not to be needed are not orders.
 */
import type { ServiceOrder } from '../types';
import { IMAGING_WORDS, ORDERABLES } from '@/server/codesets/orderables';
import type { NoteContext } from './compose';
import { orderableMatcher, tokenize } from './lexicon';
import { wordsToDigits } from './text';

const byCode = new Map(ORDERABLES.map((o) => [o.code, o]));

const ORDER_VERB =
  /\b(check|checking|order|ordering|ordered|get|getting|obtain|obtaining|draw|drawing|run|send (?:you )?(?:for|out)|repeat|recheck|re-check|schedule|scheduling|do|doing|want you to have|have you (?:get|do|go)|go ahead and (?:get|do|order|check)|like to (?:get|check|order|do|see)|need (?:a|an|to get|to check)|would like|recommend)\b/i;
const NOT_NEEDED = /\b(no need (?:for|to)|don't need|do not need|not going to (?:order|get|check)|won't (?:order|need|get|be)|wo n't|will not|hold off on|didn't|did not|already had|already did)\b/i;
// Results talk about a test already done: "the x-ray showed", "your A1c was 7.2", "we did a CBC".
const PAST = /\b(came back|showed|shows|revealed|reviewed|looked at|we did|we had|you had|you've had|you have had|they did|were able to|had to get|decided to do|before you came|(?:was|were|is|are) (?:normal|abnormal|elevated|high|low|fine|good|okay|stable|negative|positive|\d)|results? (?:of|from|show)|last (?:one|time|visit))\b/i;
const TIMING =
  /\b(?:in|within|after) (?:the next |another )?(?:\d+|a|one|two|three|four|five|six|eight|ten|twelve|a couple of|a few) (?:days?|weeks?|months?|years?)\b|\b(?:before|prior to) (?:your|the|her|his) next (?:visit|appointment)\b|\b(?:today|this week|next week|at your next visit|before you leave|every (?:three|six|\d+) months)\b/i;
// A named lab the table lacks ("an autoimmune panel", "a hepatitis B antibody"); "some labs" or "blood work" is too vague to be an order.
const SPECIFIC_LAB = /\b([a-z0-9-]+)\s+(panel|level|culture|antibody|antibodies|screen)\b/i;
const GENERIC_MOD = /^(?:a|an|the|some|few|routine|blood|your|his|her|lab|labs|basic|any|other|more|of|these|those|that|this|pain|relief|activity|energy|stress|comfort|sugar|vitamin|hormone)$/i;

const QUESTION_CLAUSE = /^(?:(?:okay|ok|so|and|then|now|well|um|uh|alright|all right)[, ]+)*(?:do|does|did|have|has|are|is|was|were|can|could|would you|any|how|what|when|why)\b/i;

/** The clauses of a sentence: orders are often listed ("increase …, continue …, and check a BMP") or follow a question. */
function clauses(text: string): string[] {
  return text
    .split(/[.;?!]\s+|,\s*(?:and\s+)?(?=(?:continue|start|stop|check|increase|decrease|order|get|refer|add|hold|recheck|repeat|discontinue|we'll|we will|i'll|i will)\b)|\s(?=(?:and |so |but )?(?:i|we)(?:'m| am| will|'ll| wan na| want| would like|'d like| are going| are gon na| need| should)\b)/i)
    .map((c) => c.trim())
    .filter(Boolean);
}

function timingOf(clause: string): string | null {
  return TIMING.exec(wordsToDigits(clause))?.[0] ?? null;
}

const STOP_BEFORE = new Set(['a', 'an', 'the', 'another', 'some', 'any', 'your', 'his', 'her', 'their', 'my', 'for', 'of', 'to', 'get', 'order', 'do', 'and', 'or', 'on', 'up', 'repeat', 'new', 'that', 'this', 'you', 'i', 'we']);
const TAIL = /^((?:\s+(?:with|without|w\/o)\s+contrast)?(?:\s+of\s+(?:the|your|his|her)\s+(?:(?:right|left|lower|upper|lumbar|cervical|thoracic)\s+)?[a-z-]+)?(?:\s+(?:with|without)\s+contrast)?)/i;

/** The order as said: the test word with up to two modifiers before it and an "of your knee" after it. */
function orderPhrase(clause: string, at: number, word: string): string {
  const before = clause.slice(0, at).trim().split(/\s+/).filter(Boolean);
  const mods: string[] = [];
  for (let k = before.length - 1; k >= 0 && mods.length < 2; k--) {
    const w = before[k].toLowerCase().replace(/[^a-z-]/g, '');
    if (!w || STOP_BEFORE.has(w) || ORDER_VERB.test(w)) break;
    mods.unshift(w);
  }
  const tail = TAIL.exec(clause.slice(at + word.length))?.[1] ?? '';
  return [...mods, word.toLowerCase() + tail.toLowerCase()].join(' ').replace(/\s+/g, ' ').trim();
}

/** Orders in one clause: table matches coded, else an imaging or specific lab phrase kept as text. */
function ordersIn(clause: string, ordering: boolean): ServiceOrder[] {
  const toks = tokenize(clause);
  const out: ServiceOrder[] = orderableMatcher.match(toks).map((h) => {
    const o = byCode.get(h.id)!;
    return { name: o.aliases[0], category: o.category, code: { code: o.code, type: 'LOINC' as const, display: o.display }, timing: timingOf(clause) };
  });
  if (out.length || !ordering) return out;
  // Not in the table: "an x-ray of your right knee", "an autoimmune panel" are still orders, kept as said.
  const img = IMAGING_WORDS.exec(clause);
  if (img) {
    // "your x-ray" is one already taken, unless the clause orders it ("get your x-ray done").
    if (/\b(?:your|his|her|the)\s+$/i.test(clause.slice(0, img.index)) && !/\bof\b/.test(clause.slice(img.index))) return out;
    out.push({ name: orderPhrase(clause, img.index, img[0]), category: 'IMAGING', code: null, timing: timingOf(clause) });
    return out;
  }
  const lab = SPECIFIC_LAB.exec(clause);
  if (lab && !GENERIC_MOD.test(lab[1])) out.push({ name: lab[0].toLowerCase(), category: 'LAB', code: null, timing: timingOf(clause) });
  return out;
}

/**
 * The orders of the visit: clinician sentences that order (an order verb, or the dictated plan's bare
 * "A1c in three months"), one order per orderable, the first time said with the timing said with it.
 */
export function serviceOrders(ctx: NoteContext): ServiceOrder[] {
  const { analysis } = ctx;
  const out = new Map<string, ServiceOrder>();
  for (const s of analysis.sentences) {
    if (s.role !== 'CLINICIAN') continue;
    for (const clause of clauses(s.text)) {
      if (NOT_NEEDED.test(clause) || QUESTION_CLAUSE.test(clause)) continue;
      // Results talk before the order verb ("the x-ray showed …") is no order; after it ("… and based on what it shows") it is.
      const v = ORDER_VERB.exec(clause);
      const past = PAST.exec(clause);
      const verb = !!v && !(past && past.index < v.index);
      // "A1c in three months." in the plan talk orders it without a verb.
      const dictated = s.i >= analysis.planStart && TIMING.test(wordsToDigits(clause)) && clause.split(' ').length <= 8;
      if (!verb && !dictated) continue;
      for (const o of ordersIn(clause, verb)) {
        // An order said twice, once more fully ("an arterial ultrasound … of your lower extremities"), is one order.
        const said = o.code ? undefined : [...out.values()].find((x) => !x.code && (o.name.startsWith(x.name) || x.name.startsWith(o.name)));
        if (said && o.name.length > said.name.length) said.name = o.name;
        const k = o.code ? o.code.code : `TEXT:${said?.name ?? o.name}`;
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
