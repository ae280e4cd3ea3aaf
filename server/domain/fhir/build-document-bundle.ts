import type { Bundle, Condition, Resource } from '@medplum/fhirtypes';
import { buildAllergyIntolerance } from './build-allergy-intolerance';
import { buildComposition } from './build-composition';
import { buildCondition } from './build-condition';
import { buildDevice } from './build-device';
import { buildDocumentReference } from './build-document-reference';
import { buildEncounter } from './build-encounter';
import { buildMedia } from './build-media';
import { buildMedicationRequest } from './build-medication-request';
import { buildPatient } from './build-patient';
import { buildPractitioner } from './build-practitioner';
import { buildProvenance } from './build-provenance';
import { buildQuestionnaireResponse } from './build-questionnaire-response';
import { buildServiceRequest } from './build-service-request';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, localSystems } from './systems';
import type { FhirExportSource } from './types';

/**
 * A session's or encounter's note as a FHIR R4 document Bundle: Composition first, then the subject,
 * encounter and authors, the coded entries, the note as a DocumentReference, the recordings and the
 * Provenance. Entries have RESTful fullUrls under PUBLIC_BASE_URL/fhir and reference each other as
 * `Type/id`, which FHIR resolves inside the Bundle. The same source gives the same Bundle.
 */
export function buildDocumentBundle(src: FhirExportSource): Bundle {
  const sys = localSystems(src.base, src.partnerId);
  const scopeId = `${src.scope.kind}:${src.scope.id}`;
  const when = src.updatedAt.toISOString();
  const patient = buildPatient(src.context, sys, src.encounterId, src.partnerId);
  const practitioner = buildPractitioner(src.provider, sys);
  const encounter = buildEncounter(src, sys, patient, practitioner);
  const device = buildDevice(src.engines, src.serviceVersion);

  const conditions = src.content.structured_data.diagnoses.values.map((diagnosis, index) =>
    buildCondition({ scopeId, index, diagnosis, hccModel: src.hccModel, recordedDate: when, patient, encounter, practitioner }),
  );
  const conditionsByIcd = new Map<string, Condition>();
  for (const c of conditions) {
    const icd = c.code?.coding?.find((x) => x.system === SYSTEM.icd10cm)?.code;
    if (icd) conditionsByIcd.set(icd.replace(/\./g, '').toUpperCase(), c);
  }
  const orders = src.content.structured_data.orders.medication_orders;
  const common = { scopeId, authoredOn: when, patient, encounter, practitioner, conditionsByIcd, sys };
  const medicationRequests = [
    ...orders.values.map((order, index) => buildMedicationRequest({ ...common, index, order, partial: false })),
    ...orders.partial_values.map((order, index) => buildMedicationRequest({ ...common, index, order, partial: true })),
  ];
  // Additive lists (issue 29): content stored before them has none.
  const allergies = (src.content.structured_data.allergies?.values ?? []).map((allergy, index) =>
    buildAllergyIntolerance({ scopeId, index, allergy, recordedDate: when, patient, encounter, practitioner }),
  );
  const serviceRequests = (src.content.structured_data.orders.service_orders?.values ?? []).map((order, index) =>
    buildServiceRequest({ scopeId, index, order, authoredOn: when, patient, encounter, practitioner }),
  );
  const forms = src.content.structured_data.section_structured_values.map((form) => ({
    loinc: form.loinc,
    resource: buildQuestionnaireResponse({ scopeId, form, authored: when, patient, encounter, practitioner, sys }),
  }));

  const fullUrl = (r: Resource) => `${sys.fhirBase}/${r.resourceType}/${r.id}`;
  const composition = buildComposition({ src, patient, encounter, practitioner, device, conditions, medicationRequests, allergies, serviceRequests, forms });
  const documentReference = buildDocumentReference({ src, composition, compositionUrl: fullUrl(composition), patient, encounter, practitioner, device });
  const media = buildMedia(src.recordings, patient, encounter, practitioner);
  const written = [composition, documentReference, ...conditions, ...allergies, ...medicationRequests, ...serviceRequests, ...forms.map((f) => f.resource)];
  const provenance = buildProvenance({ src, targets: written, device, practitioner, recordings: media });

  const resources: Resource[] = [
    composition,
    patient,
    encounter,
    practitioner,
    device,
    ...conditions,
    ...allergies,
    ...medicationRequests,
    ...serviceRequests,
    ...forms.map((f) => f.resource),
    documentReference,
    ...media,
    provenance,
  ];
  const documentId = deriveResourceId('Bundle', scopeId, when);
  return {
    resourceType: 'Bundle',
    id: documentId,
    meta: { lastUpdated: when },
    identifier: { system: SYSTEM.uri, value: `urn:uuid:${documentId}` },
    type: 'document',
    timestamp: when,
    entry: resources.map((resource) => ({ fullUrl: fullUrl(resource), resource })),
  };
}
