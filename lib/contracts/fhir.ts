/**
 * FHIR R4 export contracts: the query the export routes take and the document Bundle they answer
 * (DESIGN §12). The Bundle is described loosely here (FHIR's own StructureDefinitions are what it is
 * validated against); the schema exists for the OpenAPI document and for clients reading the envelope.
 */
import { z } from 'zod';

/** FHIR's JSON and NDJSON media types (FHIR R4 §3.1.0.1.6, Bulk Data export). */
export const FHIR_JSON = 'application/fhir+json';
export const FHIR_NDJSON = 'application/fhir+ndjson';

/**
 * `_format` as FHIR's REST API defines it, plus the NDJSON forms bulk loaders ask for. Absent means the
 * Bundle as JSON.
 */
export const FHIR_FORMATS = ['json', FHIR_JSON, 'ndjson', FHIR_NDJSON, 'application/ndjson'] as const;

export const FhirExportQuery = z.object({
  _format: z
    .enum(FHIR_FORMATS, { error: `must be one of ${FHIR_FORMATS.join(', ')}` })
    .optional()
    .describe('ndjson answers one resource per line (application/fhir+ndjson) instead of the Bundle'),
});
export type FhirExportQuery = z.infer<typeof FhirExportQuery>;

export function wantsNdjson(format: FhirExportQuery['_format']): boolean {
  return format === 'ndjson' || format === FHIR_NDJSON || format === 'application/ndjson';
}

const FhirResource = z.looseObject({ resourceType: z.string(), id: z.string() });

export const FhirDocumentBundle = z
  .looseObject({
    resourceType: z.literal('Bundle'),
    id: z.string(),
    type: z.literal('document'),
    identifier: z.object({ system: z.string(), value: z.string() }),
    timestamp: z.string(),
    entry: z.array(z.object({ fullUrl: z.string(), resource: FhirResource })),
  })
  .meta({
    id: 'FhirDocumentBundle',
    description:
      'FHIR R4 Bundle of type document: Composition first, then Patient, Encounter, Practitioner, Conditions, MedicationRequests, QuestionnaireResponses, DocumentReference, Device, Media and Provenance. Every reference resolves inside the Bundle.',
  });
export type FhirDocumentBundle = z.infer<typeof FhirDocumentBundle>;
