/**
 * Clinical knowledge graph (CKG) ingestion: a partner sends a patient's EMR data as a FHIR R4 Bundle;
 * the service extracts medications, problems and allergies into the patient's context, which validates
 * medication orders and informs notes.
 *
 * Two levels of validation: the request checks the envelope (a Bundle whose entries carry resources),
 * answered synchronously with 400; the supported resources are checked while the transaction is
 * processed, and bad content ends the transaction FAILED with an error naming the entry.
 */
import { z } from 'zod';

export const FHIR_SYSTEMS = {
  rxnorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  icd10: 'http://hl7.org/fhir/sid/icd-10',
  snomed: 'http://snomed.info/sct',
} as const;

export const SUPPORTED_RESOURCE_TYPES = ['Condition', 'MedicationRequest', 'MedicationStatement', 'AllergyIntolerance'] as const;

// ---------------------------------------------------------------------------------------------
// FHIR R4 shapes (the parts that are read; everything else passes through untouched)
// ---------------------------------------------------------------------------------------------

const str = z.string({ message: 'must be a string' });

export const FhirCoding = z.looseObject({ system: str.optional(), code: str.optional(), display: str.optional() });
export const FhirCodeableConcept = z.looseObject({ text: str.optional(), coding: z.array(FhirCoding).optional() });
export type FhirCodeableConcept = z.infer<typeof FhirCodeableConcept>;
export const FhirReference = z.looseObject({ reference: str.optional(), display: str.optional() });

export const FhirMedication = z.looseObject({ resourceType: z.literal('Medication'), id: str.optional(), code: FhirCodeableConcept.optional() });

export const FhirMedicationRequest = z.looseObject({
  resourceType: z.literal('MedicationRequest'),
  id: str.optional(),
  status: z.enum(['active', 'on-hold', 'cancelled', 'completed', 'entered-in-error', 'stopped', 'draft', 'unknown'], {
    message: 'must be a MedicationRequest status (active, on-hold, cancelled, completed, entered-in-error, stopped, draft, unknown)',
  }),
  medicationCodeableConcept: FhirCodeableConcept.optional(),
  medicationReference: FhirReference.optional(),
  dosageInstruction: z.array(z.looseObject({ text: str.optional() })).optional(),
  authoredOn: str.optional(),
});

export const FhirMedicationStatement = z.looseObject({
  resourceType: z.literal('MedicationStatement'),
  id: str.optional(),
  status: z.enum(['active', 'completed', 'entered-in-error', 'intended', 'stopped', 'on-hold', 'unknown', 'not-taken'], {
    message: 'must be a MedicationStatement status (active, completed, entered-in-error, intended, stopped, on-hold, unknown, not-taken)',
  }),
  medicationCodeableConcept: FhirCodeableConcept.optional(),
  medicationReference: FhirReference.optional(),
  dosage: z.array(z.looseObject({ text: str.optional() })).optional(),
  effectiveDateTime: str.optional(),
});

export const FhirCondition = z.looseObject({
  resourceType: z.literal('Condition'),
  id: str.optional(),
  code: FhirCodeableConcept,
  clinicalStatus: FhirCodeableConcept.optional(),
  verificationStatus: FhirCodeableConcept.optional(),
  onsetDateTime: str.optional(),
});

export const FhirAllergyIntolerance = z.looseObject({
  resourceType: z.literal('AllergyIntolerance'),
  id: str.optional(),
  code: FhirCodeableConcept,
  clinicalStatus: FhirCodeableConcept.optional(),
  verificationStatus: FhirCodeableConcept.optional(),
  criticality: z.enum(['low', 'high', 'unable-to-assess'], { message: 'must be low, high or unable-to-assess' }).optional(),
  reaction: z.array(z.looseObject({ manifestation: z.array(FhirCodeableConcept).optional(), severity: str.optional() })).optional(),
});

/** The request envelope: a Bundle whose entries each carry a resource with a resourceType. */
export const FhirBundle = z
  .looseObject({
    resourceType: z.literal('Bundle', { message: 'must be "Bundle" (a FHIR R4 Bundle)' }),
    type: str.optional(),
    entry: z
      .array(
        z.looseObject({
          fullUrl: str.optional(),
          resource: z.looseObject({ resourceType: z.string({ message: 'must be a FHIR resource type' }).min(1) }, { message: 'must be a FHIR resource' }),
        }),
        { message: 'must be an array of entries' },
      )
      .max(10_000, 'must hold at most 10000 entries')
      .optional(),
  }, { message: 'must be a FHIR R4 Bundle object' })
  .meta({ id: 'FhirBundle', description: 'FHIR R4 Bundle; Condition, MedicationRequest, MedicationStatement and AllergyIntolerance entries are read, others ignored' });
export type FhirBundle = z.infer<typeof FhirBundle>;

// ---------------------------------------------------------------------------------------------
// API
// ---------------------------------------------------------------------------------------------

export const CkgIngestRequest = z
  .object({
    emr_patient_id: z.string({ message: 'is required' }).trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
    bundle: FhirBundle,
  })
  .meta({ id: 'CkgIngestRequest' });
export type CkgIngestRequest = z.infer<typeof CkgIngestRequest>;

export const CkgIngestResponse = z.object({ transaction_id: z.uuid() }).meta({ id: 'CkgIngestResponse' });

export const CKG_TRANSACTION_STATES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'ABORTED'] as const;
export const CkgTransactionState = z.enum(CKG_TRANSACTION_STATES);
export type CkgTransactionState = z.infer<typeof CkgTransactionState>;

export const CkgError = z.object({ code: z.string(), message: z.string() }).meta({ id: 'CkgError' });
export type CkgError = z.infer<typeof CkgError>;

export const CkgTransaction = z
  .object({
    transaction_id: z.uuid(),
    state: CkgTransactionState,
    emr_patient_id: z.string(),
    created_at: z.string(),
    completed_at: z.string().optional(),
    error: CkgError.optional(),
  })
  .meta({ id: 'CkgTransaction' });
export type CkgTransaction = z.infer<typeof CkgTransaction>;

// ---------------------------------------------------------------------------------------------
// Patient context (what ingestion produces)
// ---------------------------------------------------------------------------------------------

export const PatientMedication = z.object({
  name: z.string(),
  rxcui: z.string().nullable(),
  ndc: z.string().nullable(),
  /** The FHIR status as sent (MedicationRequest or MedicationStatement vocabulary). */
  status: z.string(),
  /** The patient is (or may be) taking it: active, on-hold, intended or unknown. */
  active: z.boolean(),
  dosage_text: z.string().nullable(),
  source: z.enum(['MedicationRequest', 'MedicationStatement']),
  source_id: z.string().nullable(),
});
export type PatientMedication = z.infer<typeof PatientMedication>;

export const PatientProblem = z.object({
  name: z.string(),
  icd10: z.string().nullable(),
  snomed: z.string().nullable(),
  clinical_status: z.string().nullable(),
  active: z.boolean(),
  onset: z.string().nullable(),
  source_id: z.string().nullable(),
});
export type PatientProblem = z.infer<typeof PatientProblem>;

export const PatientAllergy = z.object({
  substance: z.string(),
  rxcui: z.string().nullable(),
  snomed: z.string().nullable(),
  clinical_status: z.string().nullable(),
  active: z.boolean(),
  criticality: z.string().nullable(),
  reactions: z.array(z.string()),
  source_id: z.string().nullable(),
});
export type PatientAllergy = z.infer<typeof PatientAllergy>;

export const PatientContext = z
  .object({
    emr_patient_id: z.string(),
    medications: z.array(PatientMedication),
    problems: z.array(PatientProblem),
    allergies: z.array(PatientAllergy),
    updated_at: z.string(),
  })
  .meta({ id: 'PatientContext' });
export type PatientContext = z.infer<typeof PatientContext>;
