import type { Encounter, Patient, Practitioner, ServiceRequest } from '@medplum/fhirtypes';
import type { ServiceOrder } from '@/lib/contracts/sessions';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, ref } from './systems';

/** FHIR R4's ServiceRequest category examples (SNOMED CT): laboratory procedure and imaging. */
const CATEGORY: Record<ServiceOrder['category'], { code: string; display: string }> = {
  LAB: { code: '108252007', display: 'Laboratory procedure' },
  IMAGING: { code: '363679005', display: 'Imaging' },
};

export interface ServiceRequestInput {
  scopeId: string;
  index: number;
  order: ServiceOrder;
  authoredOn: string;
  patient: Patient;
  encounter: Encounter;
  practitioner: Practitioner;
}

/**
 * One lab or imaging order of the note (issue 29): LOINC coded from the orderables table, or, when no row
 * matched, the order as said in code.text with no coding. The timing as said ("in three months") is the
 * occurrence's timing text, since the visit gives no date.
 */
export function buildServiceRequest(input: ServiceRequestInput): ServiceRequest {
  const { order: o } = input;
  const cat = CATEGORY[o.category];
  const key = o.code ? `LOINC:${o.code.code}` : `TEXT:${o.name.trim().toLowerCase() || `#${input.index}`}`;
  return {
    resourceType: 'ServiceRequest',
    id: deriveResourceId('ServiceRequest', input.scopeId, key),
    status: 'active',
    intent: 'order',
    ...(cat ? { category: [{ coding: [{ system: SYSTEM.snomed, code: cat.code, display: cat.display }], text: cat.display }] } : {}),
    code: {
      ...(o.code ? { coding: [{ system: SYSTEM.loinc, code: o.code.code, display: o.code.display }] } : {}),
      text: o.name.trim() || o.code?.display || 'Unnamed order',
    },
    subject: ref(input.patient),
    encounter: ref(input.encounter),
    ...(o.timing?.trim() ? { occurrenceTiming: { code: { text: o.timing.trim() } } } : {}),
    authoredOn: input.authoredOn,
    requester: ref(input.practitioner),
  };
}
