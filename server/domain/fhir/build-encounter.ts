import type { CodeableConcept, Coding, Encounter, Identifier, Patient, Practitioner } from '@medplum/fhirtypes';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, ref, type LocalSystems } from './systems';
import type { FhirExportSource } from './types';

/** Care setting (our encounter_type) → HL7 v3 ActEncounterCode, the value set Encounter.class is bound to. */
const CLASS: Record<string, [string, string]> = {
  AMBULATORY: ['AMB', 'ambulatory'],
  URGENT_CARE: ['AMB', 'ambulatory'],
  AMBULATORY_SURGERY: ['SS', 'short stay'],
  INPATIENT: ['IMP', 'inpatient encounter'],
  INPATIENT_REHABILITATION: ['IMP', 'inpatient encounter'],
  EMERGENCY: ['EMER', 'emergency'],
  OBSERVATION: ['OBSENC', 'observation encounter'],
  TELEHEALTH: ['VR', 'virtual'],
  HOME_HEALTH: ['HH', 'home health'],
  HOSPICE: ['HH', 'home health'],
  SKILLED_NURSING: ['NONAC', 'inpatient non-acute'],
  LONG_TERM_CARE: ['NONAC', 'inpatient non-acute'],
  PRE_ADMISSION_TESTING: ['PRENC', 'pre-admission'],
};

const humanize = (code: string) => code.charAt(0) + code.slice(1).toLowerCase().replace(/_/g, ' ');

function encounterStatus(status: string): Encounter['status'] {
  if (status === 'completed' || status === 'skipped' || status === 'failed') return 'finished';
  if (status === 'aborted') return 'cancelled';
  return 'in-progress';
}

/** The visit: its ids (ours and the partner's EMR encounter id), setting, purpose, reason, clinician and time. */
export function buildEncounter(src: FhirExportSource, sys: LocalSystems, patient: Patient, practitioner: Practitioner): Encounter {
  const visit = src.context.visit ?? {};
  const identifier: Identifier[] = [{ use: 'secondary', system: SYSTEM.uri, value: `urn:uuid:${src.encounterId}` }];
  if (src.emrEncounterId) identifier.unshift({ use: 'official', system: sys.emrEncounterId, value: src.emrEncounterId });
  const [code, display] = CLASS[visit.encounter_type ?? ''] ?? CLASS.AMBULATORY!;
  const cls: Coding = { system: SYSTEM.actCode, code, display };
  const reasonCode: CodeableConcept[] = [visit.chief_complaint, visit.reason_for_visit]
    .map((t) => t?.trim())
    .filter((t): t is string => !!t)
    .filter((t, i, all) => all.indexOf(t) === i)
    .map((text) => ({ text }));
  const start = src.period.start?.toISOString();
  const end = src.period.end?.toISOString();
  return {
    resourceType: 'Encounter',
    id: deriveResourceId('Encounter', src.encounterId),
    identifier,
    status: encounterStatus(src.status),
    class: cls,
    ...(visit.visit_type ? { type: [{ text: humanize(visit.visit_type) }] } : {}),
    subject: ref(patient),
    participant: [
      {
        type: [{ coding: [{ system: SYSTEM.participationType, code: 'PPRF', display: 'primary performer' }] }],
        individual: ref(practitioner),
      },
    ],
    ...(start ? { period: { start, ...(end && end >= start ? { end } : {}) } } : {}),
    ...(reasonCode.length ? { reasonCode } : {}),
  };
}
