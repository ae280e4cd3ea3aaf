import type { CodeableConcept, Condition, Encounter, MedicationRequest, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import type { MedicationOrder } from '@/lib/contracts/sessions';
import { buildDosageInstruction } from './build-dosage-instruction';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, ref, type LocalSystems } from './systems';

/**
 * Our order status (medication reconciliation within this visit) → MedicationRequest.status. The
 * finer status (NEW, CONTINUED, CHANGED, REFILLED) rides along in an extension, since FHIR's status
 * says only whether the order is in force.
 */
const STATUS: Record<string, MedicationRequest['status']> = {
  NEW: 'active',
  ACTIVE: 'active',
  CONTINUED: 'active',
  CHANGED: 'active',
  REFILLED: 'active',
  ON_HOLD: 'on-hold',
  DISCONTINUED: 'stopped',
  COMPLETED: 'completed',
  CANCELLED: 'cancelled',
};

export interface MedicationRequestInput {
  scopeId: string;
  index: number;
  order: MedicationOrder;
  /** Partial orders (missing a part the engine could not hear) are exported as draft proposals. */
  partial: boolean;
  authoredOn: string;
  patient: Patient;
  encounter: Encounter;
  practitioner: Practitioner;
  /** The bundle's Conditions by ICD-10-CM code without dots, upper case, for the order's reasons. */
  conditionsByIcd: Map<string, Condition>;
  sys: LocalSystems;
}

function medication(order: MedicationOrder): CodeableConcept {
  const c = order.medication_code;
  const system = c?.type === 'RXCUI' ? SYSTEM.rxnorm : c?.type === 'NDC' ? SYSTEM.ndc : undefined;
  return {
    ...(c && system ? { coding: [{ system, code: c.code, ...(order.drug_name.trim() ? { display: order.drug_name.trim() } : {}) }] } : {}),
    text: order.drug_name.trim() || 'Unnamed medication',
  };
}

/**
 * One medication order: RxNorm (or NDC) coded drug, FHIR status and intent, the dosage instruction
 * mapped from the info-list codes, refills and duration as the dispense request, the linked diagnoses as
 * reasons, and the encounter relation: an order of this encounter references it, a prior-encounter one
 * is marked reported (it was not written in this visit).
 */
export function buildMedicationRequest(input: MedicationRequestInput): MedicationRequest {
  const { order, sys } = input;
  const reasonReference: Reference<Condition>[] = [];
  const reasonCode: CodeableConcept[] = [];
  for (const code of order.linked_diagnosis_codes) {
    const condition = input.conditionsByIcd.get(code.replace(/\./g, '').toUpperCase());
    if (condition) reasonReference.push(ref(condition));
    else reasonCode.push({ coding: [{ system: SYSTEM.icd10cm, code }], text: code });
  }
  const prior = order.metadata.encounter_relation === 'PRIOR_ENCOUNTER';
  const status: MedicationRequest['status'] = input.partial ? 'draft' : (STATUS[order.status] ?? 'unknown');
  const refills = order.number_of_refills;
  // A changed dose carries the dose it replaces (issue 29), as a note: R4 has no element for it.
  const prev = order.previous_dosage;
  const prevText = prev ? (prev.quantity !== null ? `${prev.quantity}${prev.unit ? ` ${prev.unit.toLowerCase()}` : ''}` : prev.raw_value?.trim()) : undefined;
  const days = order.duration_in_days;
  return {
    resourceType: 'MedicationRequest',
    id: deriveResourceId('MedicationRequest', input.scopeId, input.partial ? 'partial' : 'order', String(input.index)),
    extension: [
      { url: sys.orderStatusExtension, valueCode: order.status },
      ...(order.metadata.origin ? [{ url: sys.orderOriginExtension, valueCode: order.metadata.origin }] : []),
    ],
    status,
    intent: input.partial ? 'proposal' : 'order',
    ...(prior ? { reportedBoolean: true } : {}),
    medicationCodeableConcept: medication(order),
    subject: ref(input.patient),
    ...(prior ? {} : { encounter: ref(input.encounter) }),
    authoredOn: input.authoredOn,
    requester: ref(input.practitioner),
    ...(reasonCode.length ? { reasonCode } : {}),
    ...(reasonReference.length ? { reasonReference } : {}),
    ...(prevText ? { note: [{ text: `Previous dose: ${prevText}` }] } : {}),
    dosageInstruction: [buildDosageInstruction(order)],
    ...(refills !== null || days
      ? {
          dispenseRequest: {
            ...(refills !== null ? { numberOfRepeatsAllowed: refills } : {}),
            ...(days ? { expectedSupplyDuration: { value: days, unit: 'days', system: SYSTEM.ucum, code: 'd' } } : {}),
          },
        }
      : {}),
  };
}
