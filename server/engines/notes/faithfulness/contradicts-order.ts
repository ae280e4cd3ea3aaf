import type { MedicationOrder } from '../types';
import type { Fact } from './types';

// Sections that state what the patient is to take: there a dose must be the coded order's.
const ORDER_SECTIONS = new Set(['10160-0', '51847-2', '18776-5']);

/**
 * A dose in the medication list or plan that is not the dose of the drug's new or changed order: the note
 * says "lisinopril 10 mg daily" while the order says 20 mg, CHANGED. A sentence that names both doses
 * ("increase lisinopril from 10 mg to 20 mg") reads as the change and is not a contradiction.
 */
export function contradictsOrder(fact: Fact, sentenceFacts: Fact[], section: { loinc?: string; title: string }, orders: MedicationOrder[]): boolean {
  if (fact.kind !== 'dose' || !fact.drug) return false;
  // A note without LOINC codes (plain text, another engine) is read by its headings.
  if (!(section.loinc ? ORDER_SECTIONS.has(section.loinc) : /\b(?:medications?|plan)\b/i.test(section.title))) return false;
  const order = orders.find((o) => o.drug_name === fact.drug && (o.status === 'NEW' || o.status === 'CHANGED') && o.dosage.quantity !== null);
  if (!order) return false;
  const said = sentenceFacts.filter((f) => f.kind === 'dose' && f.drug === fact.drug).map((f) => Number(f.value));
  return !said.includes(order.dosage.quantity!);
}
