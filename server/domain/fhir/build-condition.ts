import type { Coding, Condition, Encounter, Patient, Practitioner } from '@medplum/fhirtypes';
import type { StructuredData } from '@/lib/contracts/sessions';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, ref } from './systems';

type Diagnosis = StructuredData['diagnoses']['values'][number];

export interface ConditionInput {
  scopeId: string;
  index: number;
  diagnosis: Diagnosis;
  hccModel: 'V28' | 'V24';
  recordedDate: string;
  patient: Patient;
  encounter: Encounter;
  practitioner: Practitioner;
}

/**
 * One diagnosis of the note as an encounter diagnosis: ICD-10-CM coding first, then its CMS-HCC
 * category in the HL7 cmshcc system with the model version (V28 → "28") the service mapped it under.
 * The note's diagnoses come from the assessment the clinician stated, so they are active and confirmed.
 */
export function buildCondition(input: ConditionInput): Condition {
  const { diagnosis: d } = input;
  const coding: Coding[] = [];
  for (const c of d.codes) {
    if (c.type === 'ICD10') coding.push({ system: SYSTEM.icd10cm, code: c.code, ...(c.description ? { display: c.description } : {}) });
  }
  for (const c of d.codes) {
    if (c.type === 'HCC') {
      coding.push({
        system: SYSTEM.cmsHcc,
        version: input.hccModel.replace(/^V/, ''),
        code: c.code.replace(/^HCC/i, ''),
        ...(c.description ? { display: c.description } : {}),
      });
    }
  }
  const icd = d.codes.find((c) => c.type === 'ICD10');
  const text = icd?.description || d.codes.find((c) => c.description)?.description || d.diagnosis_note.trim() || undefined;
  const key = icd ? `ICD10:${icd.code.toUpperCase()}` : `#${input.index}`;
  return {
    resourceType: 'Condition',
    id: deriveResourceId('Condition', input.scopeId, key),
    clinicalStatus: { coding: [{ system: SYSTEM.conditionClinical, code: 'active', display: 'Active' }] },
    verificationStatus: { coding: [{ system: SYSTEM.conditionVerification, code: 'confirmed', display: 'Confirmed' }] },
    category: [{ coding: [{ system: SYSTEM.conditionCategory, code: 'encounter-diagnosis', display: 'Encounter Diagnosis' }] }],
    code: { ...(coding.length ? { coding } : {}), ...(text ? { text } : {}) },
    subject: ref(input.patient),
    encounter: ref(input.encounter),
    recordedDate: input.recordedDate,
    recorder: ref(input.practitioner),
    asserter: ref(input.practitioner),
    ...(d.diagnosis_note.trim() ? { note: [{ text: d.diagnosis_note.trim() }] } : {}),
  };
}
