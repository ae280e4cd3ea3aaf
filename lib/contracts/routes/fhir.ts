import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { FHIR_JSON, FhirDocumentBundle, FhirExportQuery } from '@/lib/contracts/fhir';
import { EncounterIdParams, SessionIdParams } from '@/lib/contracts/sessions';

const tags = ['FHIR export'];
const ndjsonNote =
  'With `_format=ndjson` the answer is application/fhir+ndjson: the same resources, one JSON object per line, for bulk loaders.';

export const exportSessionFhir = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/session/{ambient_session_id}/fhir',
  summary: "The session's note as a FHIR R4 document Bundle",
  description: `application/fhir+json, a Bundle of type document: Composition (LOINC-coded note type and sections, with the clinician's edits), Patient, Encounter, Practitioner, Device, Conditions (ICD-10-CM and CMS-HCC), MedicationRequests (RxNorm, dosage), QuestionnaireResponses (filled forms), DocumentReference (text/plain and the Composition), Media (recordings) and Provenance. Same scoping and terminal-state rule as content (409 before). ${ndjsonNote}`,
  tags,
  auth: 'service',
  params: SessionIdParams,
  query: FhirExportQuery,
  responses: { 200: { description: 'the document Bundle', contentType: FHIR_JSON, schema: FhirDocumentBundle } },
  errors: ['not_found', 'conflict'],
});

export const exportEncounterFhir = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/encounter/{encounter_id}/fhir',
  summary: "The encounter's note (over its completed sessions) as a FHIR R4 document Bundle",
  description: `As the session export, over the caller's completed sessions of the encounter merged as in encounter content. ${ndjsonNote}`,
  tags,
  auth: 'service',
  params: EncounterIdParams,
  query: FhirExportQuery,
  responses: { 200: { description: 'the document Bundle', contentType: FHIR_JSON, schema: FhirDocumentBundle } },
  errors: ['not_found', 'conflict'],
});

export const exportAdminSessionFhir = defineContract({
  method: 'GET',
  path: '/api/admin/v1/sessions/{id}/fhir',
  summary: "A session's FHIR R4 document Bundle, for the console (a partner admin sees its own partner's sessions)",
  tags: ['Admin'],
  auth: 'admin',
  params: z.object({ id: z.uuid({ message: 'must be a UUID' }) }),
  query: FhirExportQuery,
  responses: { 200: { description: 'the document Bundle', contentType: FHIR_JSON, schema: FhirDocumentBundle } },
  errors: ['not_found', 'conflict'],
});
