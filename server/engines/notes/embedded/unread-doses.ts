import type { LeftOutItem, MedicationOrder } from '../types';
import type { NoteContext } from './compose';
import { cutDose, doseChange, findDrugs, parseOrder, sigSpan, wrongWay } from './meds';
import { showUnclear } from './unclear';

/**
 * A dose the clinician said for a drug that no coded order, previous dose or medication taken states: the words
 * around it were not understood ("I am going to knee greece the lisinopril to twenty milligrams", a browser visit of
 * 28 Nov whose note then listed only the old 10 mg). Nothing is coded from it, so the review before signing lists it:
 * a dose change the note leaves out is signed as no change.
 */
export function unreadDoses(ctx: NoteContext, orders: MedicationOrder[], taken: Iterable<MedicationOrder>): LeftOutItem[] {
  // "ingredient quantity" for every dose an order, a previous dose or a medication taken states, and each one listed.
  const known = new Set<string>();
  for (const o of [...orders, ...taken])
    for (const q of [o.dosage.quantity, o.previous_dosage?.quantity]) if (q !== null && q !== undefined) known.add(`${o.drug_name} ${q}`);
  const out: LeftOutItem[] = [];
  for (const s of ctx.analysis.sentences) {
    if (s.role !== 'CLINICIAN' || s.question || s.allergy) continue;
    for (const d of findDrugs(s.text)) {
      // "i will [unclear] fluticasone [unclear] hundred fifty micro grams two puffs" (browser trial, 28 Nov): the strength's
      // first word was unsure, so no order states it; signed as it stands, the order would carry no strength.
      if (cutDose(s.text, d) && !known.has(`${d.ingredient} cut`)) {
        known.add(`${d.ingredient} cut`);
        out.push({ reason: 'NOT_UNDERSTOOD', kind: 'medication_order', text: `A dose of ${d.spoken} was said that was not heard whole: "${showUnclear(s.text)}"`, loinc_code: '10160-0', source_transcripts: [s.tid] });
      }
      // "increase their lisinopril for 90 mg to 40 mg": the dose before, which cannot be, is left out of the note and the
      // order (meds.ts, wrongWay); the review says so, since the words were misheard.
      const span = sigSpan(s.text, d);
      const change = doseChange(span.after);
      if (change && wrongWay(span.text, change) && !known.has(`${d.ingredient} wrong-way`)) {
        known.add(`${d.ingredient} wrong-way`);
        out.push({ reason: 'NOT_UNDERSTOOD', kind: 'medication_order', text: `A change of ${d.spoken} was heard from ${change.from} to ${change.to} ${change.unit}, which its verb contradicts; the dose before was left out: "${showUnclear(s.text)}"`, loinc_code: '10160-0', source_transcripts: [s.tid] });
      }
      const q = parseOrder(s.text, d, ctx.codes).dosage.quantity;
      if (q === null || known.has(`${d.ingredient} ${q}`)) continue;
      known.add(`${d.ingredient} ${q}`);
      out.push({ reason: 'NOT_UNDERSTOOD', kind: 'medication_order', text: `A dose of ${d.spoken} was said that no order states: "${showUnclear(s.text)}"`, loinc_code: '10160-0', source_transcripts: [s.tid] });
    }
  }
  return out;
}
