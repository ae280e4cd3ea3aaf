import type { AllergyIntolerance, Coding, Encounter, Patient, Practitioner } from '@medplum/fhirtypes';
import type { Allergy } from '@/lib/contracts/sessions';
import { ATC_SYSTEM } from '@/server/codesets/drug-classes';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, ref } from './systems';

export interface AllergyIntoleranceInput {
  scopeId: string;
  index: number;
  allergy: Allergy;
  recordedDate: string;
  patient: Patient;
  encounter: Encounter;
  practitioner: Practitioner;
}

/**
 * One allergy of the note (issue 29): the substance as RxNorm ingredient or ATC drug class coding with the
 * words said as text, active, confirmed when the clinician stated it and unconfirmed when only the patient
 * or the record reported it (then the patient is the asserter), and the reaction as said.
 */
export function buildAllergyIntolerance(input: AllergyIntoleranceInput): AllergyIntolerance {
  const { allergy: a } = input;
  const c = a.substance_code;
  const coding: Coding[] = c ? [{ system: c.type === 'RXCUI' ? SYSTEM.rxnorm : ATC_SYSTEM, code: c.code, ...(c.display ? { display: c.display } : {}) }] : [];
  const confirmed = a.verification === 'CONFIRMED';
  const key = c ? `${c.type}:${c.code}` : `NAME:${a.substance.trim().toLowerCase() || `#${input.index}`}`;
  return {
    resourceType: 'AllergyIntolerance',
    id: deriveResourceId('AllergyIntolerance', input.scopeId, key),
    clinicalStatus: { coding: [{ system: SYSTEM.allergyClinical, code: 'active', display: 'Active' }] },
    verificationStatus: {
      coding: [{ system: SYSTEM.allergyVerification, code: confirmed ? 'confirmed' : 'unconfirmed', display: confirmed ? 'Confirmed' : 'Unconfirmed' }],
    },
    type: 'allergy',
    // Substances coded from RxNorm or a drug class are medications; others (latex, foods) stay uncategorised.
    ...(c ? { category: ['medication' as const] } : {}),
    code: { ...(coding.length ? { coding } : {}), text: a.substance.trim() || c?.display || 'Unnamed substance' },
    patient: ref(input.patient),
    encounter: ref(input.encounter),
    recordedDate: input.recordedDate,
    recorder: ref(input.practitioner),
    asserter: confirmed ? ref(input.practitioner) : ref(input.patient),
    ...(a.reaction?.trim() ? { reaction: [{ manifestation: [{ text: a.reaction.trim() }] }] } : {}),
  };
}
