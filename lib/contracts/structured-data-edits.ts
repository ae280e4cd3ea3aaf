/**
 * The clinician's edits of a note's structured data (issue 29 item 5): add, change or remove a diagnosis,
 * medication order, allergy or lab/imaging order, the history of those changes, and the code searches the
 * editor offers. An edit replaces the stored structured data, so every reader (content, FHIR, visit summary,
 * encounter merge) sees it. Shared by the handlers, OpenAPI and the app.
 */
import { z } from 'zod';
import { DosageUnit, FrequencyType, MedicationOrderStatus } from '@/lib/info';
import { StructuredData } from './session-content';
import { NoteActor } from './note-signoff';

/** The four lists a clinician edits, as they are named in the stored structured data. */
export const STRUCTURED_KINDS = ['diagnoses', 'medication_orders', 'allergies', 'service_orders'] as const;
export const StructuredKind = z.enum(STRUCTURED_KINDS);
export type StructuredKind = z.infer<typeof StructuredKind>;

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const required = (max: number) => z.string({ error: 'is required' }).trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

export const DiagnosisEdit = z
  .object({
    code: required(10).describe('ICD-10-CM code, with or without the dot (E11.9); HCC categories are derived from it'),
    laterality_indicator: z.enum(['LEFT', 'RIGHT', 'BILATERAL'], { error: 'must be LEFT, RIGHT or BILATERAL' }).nullable().optional(),
    diagnosis_note: text(1000).optional().describe("the clinician's note on the diagnosis"),
  })
  .meta({ id: 'DiagnosisEdit' });
export type DiagnosisEdit = z.infer<typeof DiagnosisEdit>;

export const MedicationOrderEdit = z
  .object({
    drug_name: required(200),
    rxcui: z.string().trim().regex(/^\d{1,10}$/, 'must be an RxNorm RXCUI (digits)').nullable().optional().describe('RxNorm concept of the drug; null keeps the order as text'),
    dose_quantity: z.number({ error: 'must be a number' }).positive('must be greater than 0').max(1_000_000, 'must be at most 1000000').nullable().optional(),
    dose_unit: DosageUnit.nullable().optional(),
    frequency: FrequencyType.nullable().optional(),
    route: text(60).nullable().optional().describe('as written ("oral", "topical")'),
    status: MedicationOrderStatus,
    as_needed: z.boolean({ error: 'must be true or false' }).optional(),
    as_needed_reason: text(200).nullable().optional().describe('what it is taken for when needed ("pain")'),
    instructions: text(1000).nullable().optional(),
  })
  .meta({ id: 'MedicationOrderEdit' });
export type MedicationOrderEdit = z.infer<typeof MedicationOrderEdit>;

export const AllergyEdit = z
  .object({
    substance: required(200),
    substance_code: z
      .object({
        code: required(20),
        type: z.enum(['RXCUI', 'DRUG_CLASS'], { error: 'must be RXCUI or DRUG_CLASS' }),
      })
      .nullable()
      .optional()
      .describe('from GET /api/v1/codes/allergy-substances; null keeps the substance as text'),
    reaction: text(200).nullable().optional(),
    verification: z.enum(['CONFIRMED', 'REPORTED'], { error: 'must be CONFIRMED or REPORTED' }).default('CONFIRMED'),
  })
  .meta({ id: 'AllergyEdit' });
export type AllergyEdit = z.infer<typeof AllergyEdit>;

export const ServiceOrderEdit = z
  .object({
    name: required(200),
    category: z.enum(['LAB', 'IMAGING'], { error: 'must be LAB or IMAGING' }),
    loinc: z.string().trim().regex(/^\d{1,7}-\d$/, 'must be a LOINC code such as 51990-0').nullable().optional().describe('from GET /api/v1/codes/orderables; null keeps the order as text'),
    timing: text(200).nullable().optional().describe('when it is to be done ("in three months")'),
  })
  .meta({ id: 'ServiceOrderEdit' });
export type ServiceOrderEdit = z.infer<typeof ServiceOrderEdit>;

export interface EditBodies {
  diagnoses: DiagnosisEdit;
  medication_orders: MedicationOrderEdit;
  allergies: AllergyEdit;
  service_orders: ServiceOrderEdit;
}

export const StructuredItemParams = z.object({
  ambient_session_id: z.uuid({ message: 'must be a UUID' }),
  position: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').max(10_000, 'must be at most 10000'),
});

/**
 * A change addressed by position (PUT, DELETE) names the version of the structured data it was made on (from the
 * content, the structured data or the last edit's answer): 409 naming `version` when the data changed since, so a
 * stale position never lands on another item.
 */
export const StructuredItemQuery = z.object({
  version: z.string({ error: 'is required: the structured_data_version the change was made on' }).trim().min(1, 'is required: the structured_data_version the change was made on').max(64, 'must be at most 64 characters'),
});
export type StructuredItemQuery = z.infer<typeof StructuredItemQuery>;

export const StructuredDataEditResponse = z
  .object({
    structured_data: StructuredData,
    /**
     * Where the added or changed item now is in its list (medication orders: values, then partial_values, as
     * the content lists them); null after a removal.
     */
    position: z.number().int().nullable(),
    /** The version of the structured data answered: the one the next change by position carries. */
    structured_data_version: z.string(),
  })
  .meta({ id: 'StructuredDataEditResponse' });
export type StructuredDataEditResponse = z.infer<typeof StructuredDataEditResponse>;

export const StructuredDataChange = z
  .object({
    kind: StructuredKind,
    action: z.enum(['add', 'edit', 'remove']),
    position: z.number().int(),
    at: z.string(),
    by: NoteActor,
    before: z.unknown().describe('the item before the change; null for an add'),
    after: z.unknown().describe('the item after the change; null for a removal'),
  })
  .meta({ id: 'StructuredDataChange' });
export type StructuredDataChange = z.infer<typeof StructuredDataChange>;

export const StructuredDataHistoryResponse = z
  .object({ changes: z.array(StructuredDataChange).describe('newest first, at most 500') })
  .meta({ id: 'StructuredDataHistoryResponse' });
export type StructuredDataHistoryResponse = z.infer<typeof StructuredDataHistoryResponse>;

export const CodeSearchQuery = z.object({
  q: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  limit: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(50, 'must be at most 50').optional(),
});
export type CodeSearchQuery = z.infer<typeof CodeSearchQuery>;

export const Icd10SearchResponse = z
  .object({ results: z.array(z.object({ code: z.string(), description: z.string() })) })
  .meta({ id: 'Icd10SearchResponse' });
export type Icd10SearchResponse = z.infer<typeof Icd10SearchResponse>;

export const RxNormSearchResponse = z
  .object({ results: z.array(z.object({ rxcui: z.string(), name: z.string(), tty: z.string().describe('IN, PIN, MIN or SCD') })) })
  .meta({ id: 'RxNormSearchResponse' });
export type RxNormSearchResponse = z.infer<typeof RxNormSearchResponse>;

export const AllergySubstanceSearchResponse = z
  .object({ results: z.array(z.object({ code: z.string(), type: z.enum(['RXCUI', 'DRUG_CLASS']), display: z.string() })) })
  .meta({ id: 'AllergySubstanceSearchResponse' });
export type AllergySubstanceSearchResponse = z.infer<typeof AllergySubstanceSearchResponse>;

export const OrderableSearchResponse = z
  .object({ results: z.array(z.object({ code: z.string(), display: z.string(), category: z.enum(['LAB', 'IMAGING']) })) })
  .meta({ id: 'OrderableSearchResponse' });
export type OrderableSearchResponse = z.infer<typeof OrderableSearchResponse>;
