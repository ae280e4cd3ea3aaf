/** Medication orders and the medication list; allergies. */
import type { MedicationOrder } from '../types';
import { priorQuestion, type NoteContext, type Piece } from './compose';
import { KEEP_DRUG, avoidedDrugs, findDrugs, isCompleteOrder, parseOrder, wrongWayFrom } from './meds';
import type { Problem } from './plan';
import { capitalize, finishSentence } from './text';
import { RELATION, STATUS } from './vocab';
import { NO, YES, type Sentence } from './analyze';
import { hasUnclear } from './unclear';
import { avoidedAllergens } from './allergies';
import { askedToTake, declinedDrugs, notTakenNow } from './not-taken';

function mergeOrder(into: MedicationOrder, from: MedicationOrder) {
  // A change said later is the order: "you are on lisinopril 10 mg … I will increase the lisinopril to 20 mg".
  if (from.status === STATUS.CHANGED) {
    into.status = STATUS.CHANGED;
    if (from.dosage.quantity !== null) into.dosage = from.dosage;
    if (from.frequency.structured_value !== null) into.frequency = from.frequency;
  }
  into.dosage = into.dosage.quantity === null ? from.dosage : into.dosage;
  into.frequency = into.frequency.structured_value === null ? from.frequency : into.frequency;
  into.medication_timing ??= from.medication_timing;
  into.route ??= from.route;
  into.duration_in_days ??= from.duration_in_days;
  into.number_of_refills ??= from.number_of_refills;
  into.instructions ??= from.instructions;
  if (from.as_needed) {
    into.as_needed = true;
    into.as_needed_reason ??= from.as_needed_reason ?? null;
  }
  if (from.previous_dosage) into.previous_dosage = from.previous_dosage;
  if (from.status === STATUS.DISCONTINUED) into.status = from.status;
}

/**
 * What the visit said before the order completes it (issue 29 item 3): a continued drug keeps the dose and
 * frequency said of it ("metformin 500 mg twice a day" … "continue metformin"), a changed dose records the
 * dose taken before, and a drug taken as needed stays as needed.
 */
function completeFromTaken(o: MedicationOrder, before: MedicationOrder | undefined): void {
  if (!before) return;
  const kept = o.status === STATUS.CONTINUED || o.status === STATUS.REFILLED || o.status === STATUS.ACTIVE;
  if (kept && o.dosage.quantity === null && before.dosage.quantity !== null) o.dosage = { ...before.dosage };
  if (kept && o.frequency.structured_value === null && before.frequency.structured_value !== null) o.frequency = { ...before.frequency };
  if (kept) o.medication_timing ??= before.medication_timing;
  o.route ??= before.route;
  if (before.as_needed && (kept || o.frequency.structured_value === null || o.frequency.structured_value === 'AS_NEEDED')) {
    o.as_needed = true;
    o.as_needed_reason ??= before.as_needed_reason ?? null;
  }
  const b = before.dosage;
  if (o.status === STATUS.CHANGED && !o.previous_dosage && b.quantity !== null && o.dosage.quantity !== null && b.quantity !== o.dosage.quantity && b.unit === o.dosage.unit)
    o.previous_dosage = { ...b };
}

/**
 * The clinician asked whether the patient takes it and the patient said yes, or the patient said so, or the
 * patient answered such a question naming the drug ("Are you still taking the metformin?" "Yes, metformin
 * 1000 mg twice a day.").
 */
function takesDrug(ctx: NoteContext, s: Sentence): boolean {
  if (s.role === 'PATIENT') {
    if (s.question) return false;
    if (/\b(i (?:take|am taking|'m taking|am on|'m on|use)|i've been (?:taking|on))\b/i.test(s.text)) return true;
    const q = priorQuestion(ctx, s);
    return !!q && q.role === 'CLINICIAN' && takesDrug(ctx, q) && !NO.test(s.text.trim());
  }
  if (!s.question) return false;
  const next = ctx.analysis.turns[s.turn + 1];
  if (next?.role !== 'PATIENT' || !YES.test(next.text.trim())) return false;
  // The question's verb may have been unclear; a yes that says "I take it" confirms on its own.
  return /\b(taking|take|on|using)\b/i.test(s.text) || /\bi (?:take|am taking|'m taking|use|am on|'m on)\b/i.test(next.text);
}

/**
 * A clinician's question about a drug that the patient's next turn answers no to ("Are you still taking …?" "No, I ran
 * out"); not an answer that goes on to name what is taken ("no, just the metformin").
 */
function answeredNo(ctx: NoteContext, s: Sentence): boolean {
  const next = ctx.analysis.turns[s.turn + 1];
  return next?.role === 'PATIENT' && NO.test(next.text.trim()) && !findDrugs(next.text).length && !/\b(?:just|only|but|except|still)\b/i.test(next.text);
}

const ORDER_VERB = /\b(prescribe|prescribing|start|starting|restart|resume|initiate|put (?:you|him|her) on|order|refill|continue|increase|decrease|stop|discontinue|switch|change|add|try|take|give you|send in|call in|keep (?:taking|using|on|you on|him on|her on)|stay(?:ing)? on|remain(?:ing)? on)\b/i;

export function medicationOrders(
  ctx: NoteContext,
  problems: Problem[],
): { values: MedicationOrder[]; partial: MedicationOrder[]; current: Piece[]; currentIngredients: Set<string>; sources: Map<string, string[]>; taken: Map<string, MedicationOrder> } {
  const { analysis } = ctx;
  const orders = new Map<string, MedicationOrder>();
  const sources = new Map<string, string[]>();
  const current = new Map<string, Piece & { sig?: boolean }>();
  const active = new Map<string, MedicationOrder>();
  // What the patient was taking before this visit's orders, as said: the "from" of a changed dose.
  const taken = new Map<string, MedicationOrder>();
  const prnSaid = new Map<string, { reason: string | null; frequency: MedicationOrder['frequency']; tid: string }>();
  for (const s of analysis.sentences) {
    // A drug the visit names as an allergen is never taken or ordered, wherever it is said ("can I take penicillin?"),
    // nor one this sentence says to avoid: "avoid X" is no order of X.
    const avoided = new Set([...avoidedDrugs(s.text), ...declinedDrugs(s.text)].map((d) => d.ingredient));
    // Another person's drug, one the patient no longer takes, one a question names and the answer denies, or one the patient
    // asks to take: not on the list.
    const notNow = notTakenNow(s.text) || (s.question && (s.role === 'CLINICIAN' ? answeredNo(ctx, s) : askedToTake(s.text)));
    const drugs = findDrugs(s.text).filter((d) => !analysis.allergens.has(d.ingredient) && !avoided.has(d.ingredient));
    if (!drugs.length) continue;
    // "You are on lisinopril 10 mg daily" states what is taken; it orders nothing.
    const statesTaken = /\b(?:you are on|you're on|you take|you've been taking|you have been taking|you are taking|you're taking|you're currently on|you are currently on)\b/i.test(s.text) && !ORDER_VERB.test(s.text.replace(/\byou (?:take|are taking|'re taking)\b/gi, ''));
    const keptDrug = drugs.some((d) => KEEP_DRUG.test(s.text.slice(0, Math.max(0, s.text.toLowerCase().indexOf(d.spoken.split(' ')[0])))));
    const ordering = s.role === 'CLINICIAN' && !s.question && !statesTaken && (ORDER_VERB.test(s.text) || keptDrug || (s.i >= analysis.planStart && /\d/.test(s.text)));
    // An allergy statement or the answer to an allergy question names what the patient must not take.
    const negatedUse = s.allergy || /\b(not taking|don't take|never taken|stopped taking|no longer taking|allergic)\b/i.test(s.text);
    for (const d of drugs) {
      // "[unclear] the albuterol for shortness of breath as needed": the clinician's words say how a drug is taken
      // though its verb was not heard; they complete the drug taken, never order it.
      if (!ordering && s.role === 'CLINICIAN' && !s.question && !negatedUse && !s.allergy && !prnSaid.has(d.ingredient)) {
        const o = parseOrder(s.text, d, ctx.codes);
        if (o.as_needed) prnSaid.set(d.ingredient, { reason: o.as_needed_reason ?? null, frequency: o.frequency, tid: s.tid });
      }
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
      // A drug the patient confirms taking (answering "are you taking …", or "I take …") is an active order.
      // The first mention is the order; a later one fills in what it left unsaid (the question names the
      // drug, the answer its dose).
      const had = active.get(d.ingredient);
      if (!ordering && !negatedUse && !notNow && (!had || had.dosage.quantity === null) && ((statesTaken && s.role === 'CLINICIAN') || (s.i < analysis.planStart && takesDrug(ctx, s)))) {
        const o = parseOrder(s.text, d, ctx.codes);
        o.status = STATUS.ACTIVE;
        o.metadata.encounter_relation = RELATION.PRIOR;
        if (had) mergeOrder(had, o);
        else active.set(d.ingredient, o);
        if (!taken.has(d.ingredient) || taken.get(d.ingredient)!.dosage.quantity === null) taken.set(d.ingredient, had ?? o);
        sources.set(d.ingredient, [...new Set([...(sources.get(d.ingredient) ?? []), s.tid])]);
      }
      const listed = current.get(d.ingredient);
      if (s.i < analysis.planStart && !negatedUse && !notNow && (!listed || !listed.sig)) {
        const o = parseOrder(s.text, d, ctx.codes);
        const sig = [o.dosage.raw_value?.replace(/milligrams?/i, 'mg'), o.frequency.raw_value, prnText(o)].filter(Boolean).join(' ');
        if (!listed || sig) {
          current.set(d.ingredient, { text: finishSentence(`${capitalize(d.spoken)}${sig ? ' ' + sig : ''}`), src: [...(listed?.src ?? []), s.tid], sig: !!sig });
          if (!taken.has(d.ingredient) || sig) taken.set(d.ingredient, o);
        }
      }
    }
  }
  for (const [ing, o] of active) if (!orders.has(ing)) orders.set(ing, o);
  for (const [ing, prn] of prnSaid) {
    const o = orders.get(ing);
    if (!o || o.status === STATUS.DISCONTINUED || (o.as_needed && o.as_needed_reason)) continue;
    o.as_needed = true;
    o.as_needed_reason = o.as_needed_reason ?? prn.reason;
    if (o.frequency.structured_value === null && prn.frequency.structured_value === 'AS_NEEDED') o.frequency = { ...prn.frequency };
    sources.set(ing, [...new Set([...(sources.get(ing) ?? []), prn.tid])]);
  }
  for (const [ing, o] of orders) completeFromTaken(o, o === active.get(ing) ? undefined : taken.get(ing) ?? active.get(ing));
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
  for (const o of [...values, ...partial]) o.source_transcripts = sources.get(o.drug_name) ?? [];
  // The list states what the coded order states: a drug whose dose this visit changes reads as the change.
  for (const [ing, piece] of current) {
    const o = values.find((x) => x.drug_name === ing && (x.status === STATUS.CHANGED || x.status === STATUS.NEW) && x.dosage.quantity !== null);
    if (!o) continue;
    piece.text = orderLine(o, taken.get(ing), findDrugs(piece.text)[0]?.spoken);
    piece.src = [...new Set([...piece.src, ...(sources.get(ing) ?? [])])];
  }
  return { values, partial, current: [...current.values()].map(({ sig: _sig, ...piece }) => piece), currentIngredients: new Set(current.keys()), sources, taken };
}

/** A medication list line from the coded order: "Lisinopril, increased from 10 mg to 20 mg once daily." for a changed dose. */
export function orderLine(o: MedicationOrder, before: MedicationOrder | undefined, spoken = o.drug_name): string {
  const changed = before && before.dosage.quantity !== null && o.dosage.quantity !== null && before.dosage.quantity !== o.dosage.quantity && before.dosage.unit === o.dosage.unit;
  return changed
    ? finishSentence(`${capitalize(spoken)}, ${o.dosage.quantity! > before.dosage.quantity! ? 'increased' : 'decreased'} from ${before.dosage.quantity} ${o.dosage.unit!.toLowerCase()} to ${sigText(o)}`)
    : finishSentence(`${capitalize(spoken)} ${sigText(o)}`);
}

/**
 * "We will increase the lisinopril to 20 mg daily." with 10 mg said before reads "We will increase the
 * lisinopril from 10 mg to 20 mg daily.": a changed medication reads as a change (issue 27).
 */
export function sayChanges(pieces: Piece[], orders: MedicationOrder[], taken: Map<string, MedicationOrder>): void {
  for (const p of pieces) {
    // A dose before that cannot be (an increase from more than the new dose) is not written as said.
    const impossible = wrongWayFrom(p.text);
    if (impossible) p.text = p.text.replace(impossible, '');
    for (const d of findDrugs(p.text)) {
      const o = orders.find((x) => x.drug_name === d.ingredient && x.status === STATUS.CHANGED && x.dosage.quantity !== null && x.dosage.unit);
      const before = taken.get(d.ingredient);
      if (!o || !before || before.dosage.quantity === null || before.dosage.quantity === o.dosage.quantity || before.dosage.unit !== o.dosage.unit) continue;
      if (/\bfrom \d/.test(p.text)) continue;
      const unit = o.dosage.unit!.toLowerCase();
      const said = (n: number) => new RegExp(`\\b${n} (?:${unit}|milligrams?)\\b`, 'i');
      if (said(o.dosage.quantity!).test(p.text)) p.text = p.text.replace(new RegExp(`\\bto (${o.dosage.quantity} (?:${unit}|milligrams?))`, 'i'), `from ${before.dosage.quantity} ${unit} to $1`);
      // Only the old dose said ("is on lisinopril 10 mg daily"): the sentence says it was changed, as the order does.
      else if (said(before.dosage.quantity).test(p.text)) {
        p.text = p.text.replace(new RegExp(`(\\b${before.dosage.quantity} (?:${unit}|milligrams?)(?: (?:once |twice )?daily| (?:once|twice) a day)?)`, 'i'), `$1 (increased to ${sigText(o)} at this visit)`);
        p.src = [...new Set([...p.src, ...(o.source_transcripts ?? [])])];
      }
    }
  }
}

const REACTION = /\b(rash|hives|itching|itchy|swelling|swell(?:s|ed)? up|throat (?:closes|closing|swelling)|anaphylaxis|trouble breathing|shortness of breath|nausea|vomiting|diarrhea|upset stomach|stomach upset|palpitations|headaches?|dizziness|blisters)\b/i;

/**
 * The Allergies section, as scribes write it: "Penicillin causes rash." The allergen is the drug named
 * (its spoken name), else the words after "allergic to"; the reaction is one said in the allergy statement.
 */
export function allergyPieces(ctx: NoteContext): Piece[] {
  const out: Piece[] = [];
  const sents = ctx.analysis.sentences;
  for (const s of sents) {
    const q = s.role === 'PATIENT' ? priorQuestion(ctx, s) : undefined;
    if (q && /\ballerg/i.test(q.text) && s === ctx.analysis.turns[s.turn].sentences[0] && NO.test(s.text.trim())) {
      out.push({ text: 'No known drug allergies.', src: [q.tid, s.tid] });
      continue;
    }
    // "… so we will avoid penicillin" after its rash: the allergy, however "allergy" was heard (or not).
    for (const a of avoidedAllergens(ctx, s)) out.push({ text: finishSentence(`${capitalize(a.name)}${a.reaction ? ` causes ${a.reaction}` : ''}`), src: a.src });
    if (s.question || (!s.allergy && !/\ballerg/i.test(s.text))) continue;
    if (/\b(no|not|don't have any|nkda)\b.{0,20}\ballerg/i.test(s.text) && s.role === 'PATIENT') { out.push({ text: 'No known drug allergies.', src: [s.tid] }); continue; }
    const m = /\ballerg(?:ic|y|ies) to ([a-z0-9 ,/-]+)/i.exec(s.text);
    // "… penicillin allergies", the drug said before the word: only a drug the lexicon knows, as the coded allergy is.
    const before = m ? null : /((?:\S+\s+){0,2}\S+)\s+allerg(?:y|ies)\b/i.exec(s.text);
    const named = m ? m[1] : before && findDrugs(before[1]).length ? before[1] : s.allergy && q && /\ballerg/i.test(q.text) ? s.text : '';
    if (!named || /^(?:any|anything|medications?|medicines?|drugs?)\b/i.test(named.trim())) continue;
    const drugs = findDrugs(named);
    // Never words the recogniser was unsure of, nor the reaction itself: "[unclear] hives" read "Hives causes hives."
    const allergens = drugs.length
      ? drugs.map((d) => d.spoken)
      : [named.split(/\s*(?:[,.;!?]|\band\b|\bbut\b|\bit\b|\bthey\b|\bwhich\b)\s*/i)[0].trim()].filter((x) => x && x.split(' ').length <= 4 && !hasUnclear(x) && !REACTION.test(x));
    // The reaction may be said in this sentence or the next of the same turn ("it gives me a rash").
    const next = sents[s.i + 1];
    const reactionSrc = REACTION.test(s.text) ? s : next?.allergy && next.turn === s.turn && REACTION.test(next.text) ? next : undefined;
    const reaction = reactionSrc ? REACTION.exec(reactionSrc.text)![1].toLowerCase().replace(/^itchy$/, 'itching') : '';
    const src = [...new Set([...(q && s.allergy && !m ? [q.tid] : []), s.tid, ...(reactionSrc ? [reactionSrc.tid] : [])])];
    for (const allergen of allergens) out.push({ text: finishSentence(`${capitalize(allergen)}${reaction ? ` causes ${reaction}` : ''}`), src });
  }
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(p.text) && !!seen.add(p.text));
}

const FREQ_WORDS: Record<string, string> = {
  ONE_A_DAY: 'once daily', TWO_A_DAY: 'twice daily', THREE_A_DAY: 'three times daily', FOUR_A_DAY: 'four times daily',
  AT_BEDTIME: 'at bedtime', AS_NEEDED: 'as needed', ONCE_A_WEEK: 'once weekly', EVERY_OTHER_DAY: 'every other day', EVERY_MORNING: 'every morning',
};

const COUNT_SAID = /^\d+(?:\.\d+)? (?:puffs?|tablets?|tabs?|pills?|capsules?|drops?|sprays?|patch)$/i;

/** How an order's dose reads in the note ("250 mcg 2 puffs", "2 puffs", "10 mg"); '' without one. */
export function doseText(o: MedicationOrder): string {
  const unit = o.dosage.unit === 'PUFF' && o.dosage.quantity !== 1 ? 'puffs' : o.dosage.unit?.toLowerCase();
  // A strength said with the count per dose ("250 micrograms 2 puffs") reads with both, as said.
  const said = o.instructions?.split('; ')[0];
  const count = said && COUNT_SAID.test(said) && o.dosage.raw_value?.endsWith(said) ? ` ${said}` : '';
  return o.dosage.quantity !== null && unit ? `${o.dosage.quantity} ${unit}${count}` : '';
}

/** How an order's sig reads in the note ("10 mg once daily"), from the structured values only. */
export function sigText(o: MedicationOrder): string {
  const dose = doseText(o);
  const freq = o.frequency.structured_value ? FREQ_WORDS[o.frequency.structured_value] ?? o.frequency.raw_value ?? '' : '';
  return [dose, freq, prnText(o)].filter(Boolean).join(' ');
}

/** "as needed for pain" when the order is taken as needed and its frequency does not already say so (issue 29). */
export function prnText(o: MedicationOrder): string {
  if (!o.as_needed) return '';
  const said = o.frequency.structured_value === 'AS_NEEDED' || /\b(as needed|prn|when needed|if needed)\b/i.test(o.frequency.raw_value ?? '');
  const reason = o.as_needed_reason ? `for ${o.as_needed_reason}` : '';
  return said ? reason : ['as needed', reason].filter(Boolean).join(' ');
}

/**
 * "Start lisinopril." said in a dictated plan, with the dose stated earlier in the visit, reads
 * "Start lisinopril 10 mg once daily." in the plan: the sig comes from the coded order, never from
 * the words around the drug, so a misheard number cannot reach the note this way.
 */
export function addSigs(pieces: Piece[], orders: MedicationOrder[]): void {
  for (const p of pieces) {
    if (/\d/.test(p.text)) continue;
    const drugs = findDrugs(p.text);
    if (drugs.length !== 1) continue;
    const o = orders.find((x) => x.drug_name === drugs[0].ingredient);
    // A sentence that already says "as needed" is not told it twice.
    const sig = o ? sigText(/\b(as needed|prn|when needed|if needed)\b/i.test(p.text) ? { ...o, as_needed: false, frequency: o.frequency.structured_value === 'AS_NEEDED' ? { raw_value: null, structured_value: null } : o.frequency } : o) : '';
    if (!sig) continue;
    p.text = p.text.replace(new RegExp(`\\b(${drugs[0].spoken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})\\b`, 'i'), `$1 ${sig}`);
  }
}
