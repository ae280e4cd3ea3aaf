import type { Composition, Device, DocumentReference, Encounter, Patient, Practitioner } from '@medplum/fhirtypes';
import { FHIR_JSON } from '@/lib/contracts/fhir';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, ref } from './systems';
import type { FhirExportSource } from './types';

export interface DocumentReferenceInput {
  src: FhirExportSource;
  composition: Composition;
  /** The Composition's fullUrl in this Bundle. */
  compositionUrl: string;
  patient: Patient;
  encounter: Encounter;
  practitioner: Practitioner;
  device: Device;
}

/** The note as plain text, sections in order, the way the web app copies it. */
function plainText(src: FhirExportSource): string {
  return src.content.summary.map((s) => `${s.title}\n${s.content}`).join('\n\n');
}

/**
 * The note for EHRs that file documents rather than structured data: the same note twice, as
 * text/plain (inline, base64) and as the FHIR Composition of this Bundle, with its type, status,
 * patient, author and encounter.
 */
export function buildDocumentReference(input: DocumentReferenceInput): DocumentReference {
  const { src, composition } = input;
  return {
    resourceType: 'DocumentReference',
    id: deriveResourceId('DocumentReference', src.scope.kind, src.scope.id),
    masterIdentifier: { system: SYSTEM.uri, value: `urn:uuid:${src.compositionId}` },
    status: 'current',
    docStatus: composition.status,
    type: composition.type,
    category: [{ coding: [{ system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category', code: 'clinical-note', display: 'Clinical Note' }] }],
    subject: ref(input.patient),
    date: composition.date.endsWith('Z') ? composition.date : new Date(composition.date).toISOString(),
    author: [ref(input.practitioner), ref(input.device)],
    description: composition.title,
    content: [
      {
        attachment: {
          contentType: 'text/plain; charset=utf-8',
          language: 'en-US',
          // FHIR forbids empty strings: a note without text has no data rather than "".
          ...(plainText(src) ? { data: Buffer.from(plainText(src), 'utf8').toString('base64') } : {}),
          title: composition.title,
          creation: composition.date,
        },
      },
      { attachment: { contentType: FHIR_JSON, url: input.compositionUrl, title: composition.title, creation: composition.date } },
    ],
    context: {
      encounter: [ref(input.encounter)],
      related: [ref(composition)],
      ...(input.encounter.period ? { period: input.encounter.period } : {}),
    },
  };
}
