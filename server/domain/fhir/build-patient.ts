import type { HumanName, Identifier, Patient } from '@medplum/fhirtypes';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, type LocalSystems } from './systems';
import type { ExportContext } from './types';

const GENDERS = new Set(['male', 'female', 'other', 'unknown']);

function humanName(name: NonNullable<ExportContext['patient']>['name']): HumanName | undefined {
  if (!name) return undefined;
  if (typeof name === 'string') return name.trim() ? { text: name.trim() } : undefined;
  const given = typeof name.given === 'string' ? [name.given] : (name.given ?? []);
  const out: HumanName = {
    ...(name.text?.trim() ? { text: name.text.trim() } : {}),
    ...(name.family?.trim() ? { family: name.family.trim() } : {}),
    ...(given.filter((g) => g.trim()).length ? { given: given.filter((g) => g.trim()).map((g) => g.trim()) } : {}),
  };
  return Object.keys(out).length ? out : undefined;
}

/**
 * The visit's patient. The service knows a patient only through the partner's context, so this is a
 * reference-only Patient (an id the Bundle's references resolve to) unless the context identifies one:
 * the EMR patient id (the key CKG data is stored under), an MRN, a name, and birth date and sex.
 */
export function buildPatient(context: ExportContext, sys: LocalSystems, encounterId: string, partnerId: string): Patient {
  const p = context.patient ?? {};
  const emrId = p.emr_patient_id?.trim();
  const identifier: Identifier[] = [];
  if (emrId) identifier.push({ use: 'usual', system: sys.emrPatientId, value: emrId });
  if (p.mrn?.trim()) {
    identifier.push({
      use: 'official',
      type: { coding: [{ system: SYSTEM.identifierType, code: 'MR', display: 'Medical record number' }] },
      system: sys.mrn,
      value: p.mrn.trim(),
    });
  }
  const name = humanName(p.name);
  return {
    resourceType: 'Patient',
    // The same EMR patient gets the same id across visits; an unidentified one is the visit's patient.
    id: emrId ? deriveResourceId('Patient', partnerId, emrId) : deriveResourceId('Patient', 'encounter', encounterId),
    ...(identifier.length ? { identifier } : {}),
    ...(name ? { name: [name] } : {}),
    ...(p.sex && GENDERS.has(p.sex) ? { gender: p.sex as Patient['gender'] } : {}),
    ...(p.dob ? { birthDate: p.dob } : {}),
  };
}
