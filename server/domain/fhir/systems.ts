/**
 * Code systems and identifier namespaces the export writes. External systems are the ones FHIR R4 and
 * HL7 Terminology name; this deployment's own identifiers live under PUBLIC_BASE_URL, so two
 * deployments never mint colliding identifiers (README, FHIR export).
 */
import type { Reference, Resource } from '@medplum/fhirtypes';

export const SYSTEM = {
  loinc: 'http://loinc.org',
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  cmsHcc: 'http://terminology.hl7.org/CodeSystem/cmshcc',
  rxnorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  snomed: 'http://snomed.info/sct',
  ucum: 'http://unitsofmeasure.org',
  uri: 'urn:ietf:rfc:3986',
  actCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  conditionClinical: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
  conditionVerification: 'http://terminology.hl7.org/CodeSystem/condition-ver-status',
  conditionCategory: 'http://terminology.hl7.org/CodeSystem/condition-category',
  allergyClinical: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
  allergyVerification: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
  participationType: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType',
  provenanceParticipant: 'http://terminology.hl7.org/CodeSystem/provenance-participant-type',
  dataOperation: 'http://terminology.hl7.org/CodeSystem/v3-DataOperation',
  mediaType: 'http://terminology.hl7.org/CodeSystem/media-type',
  identifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  listEmptyReason: 'http://terminology.hl7.org/CodeSystem/list-empty-reason',
} as const;

/** Namespaces of this deployment: identifiers, the Embedded Form questionnaires and extensions. */
export function localSystems(base: string, partnerId: string) {
  const b = `${base.replace(/\/+$/, '')}/fhir`;
  const partner = `${b}/sid/partners/${encodeURIComponent(partnerId)}`;
  return {
    /** Base of every entry's fullUrl: `${fhirBase}/${type}/${id}`. */
    fhirBase: b,
    providerId: `${b}/sid/provider-id`,
    partnerProviderId: `${partner}/provider-id`,
    emrPatientId: `${partner}/emr-patient-id`,
    mrn: `${partner}/mrn`,
    emrEncounterId: `${partner}/emr-encounter-id`,
    questionnaire: (templateId: string) => `${b}/Questionnaire/${encodeURIComponent(templateId)}`,
    orderStatusExtension: `${b}/StructureDefinition/medication-order-status`,
    orderOriginExtension: `${b}/StructureDefinition/medication-order-origin`,
  };
}
export type LocalSystems = ReturnType<typeof localSystems>;

/** A literal reference inside the Bundle: `Type/id`, resolved against the entries' RESTful fullUrls. */
export function ref<T extends Resource>(resource: T & { id?: string }, display?: string): Reference<T> {
  return { reference: `${resource.resourceType}/${resource.id}`, ...(display ? { display } : {}) };
}
