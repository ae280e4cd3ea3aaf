/**
 * Issue 29 item 3: a medication the visit continues is an ACTIVE order of this encounter. CONTINUED stays a
 * code of the medication_order_statuses list (a partner's context may send it), but what the service
 * produces, from the conversation or the clinician's editor, is ACTIVE with encounter_relation
 * CURRENT_ENCOUNTER. That pair is how "continued in this visit" stays discernible in the contract's own
 * fields: an order the patient only reports taking is ACTIVE with PRIOR_ENCOUNTER, a new one is NEW, a
 * changed dose CHANGED. FHIR follows: MedicationRequest status active, with the encounter referenced (a
 * prior-encounter order is reported and not this encounter's).
 */
export interface StatusedOrder {
  status: string;
  metadata: { origin: string; encounter_relation: string };
}

export function continuedAsActive<T extends StatusedOrder>(order: T): T {
  if (order.status !== 'CONTINUED') return order;
  return { ...order, status: 'ACTIVE', metadata: { ...order.metadata, encounter_relation: 'CURRENT_ENCOUNTER' } };
}
