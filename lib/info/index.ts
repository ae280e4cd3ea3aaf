/**
 * Reference information: the lists GET /api/v1/info serves, the per-category routes, and the zod
 * enums request validation uses. Validation and the info endpoints read the same constants so a code
 * the service advertises is always a code it accepts, and the reverse.
 */
import { z } from 'zod';
import { FORM_TEMPLATE_IDS, FORM_TEMPLATES } from './form-templates';
import { deepFreeze } from './freeze';
import {
  DIAGNOSIS_CODE_TYPE_CODES,
  DIAGNOSIS_INPUT_CODE_TYPES,
  DOSAGE_UNIT_CODES,
  ENCOUNTER_RELATION_CODES,
  ENCOUNTER_TYPE_CODES,
  FIELD_TYPE_CODES,
  FREQUENCY_TYPE_CODES,
  LOINC_CODES,
  MEDICATION_CODING_SYSTEM_CODES,
  MEDICATION_ORDER_STATUS_CODES,
  MEDICATION_TIMING_CODES,
  ORDER_ORIGIN_CODES,
  PROVIDER_ROLE_CODES,
  SPECIALTY_CODES,
  VISIT_TYPE_CODES,
  diagnosis_code_types,
  encounter_types,
  loincs,
  medication_coding_systems,
  medication_dosage_units,
  medication_frequency_types,
  medication_order_statuses,
  medication_timings,
  order_encounter_relations,
  order_origins,
  provider_roles,
  specialties,
  structured_data_field_types,
  visit_types,
} from './lists';

export * from './lists';
export * from './form-templates';

// ---------------------------------------------------------------------------------------------
// GET /api/v1/info
// ---------------------------------------------------------------------------------------------

/** Every order list, as GET /api/v1/info/orders answers and as GET /api/v1/info embeds them. */
export const ORDER_LISTS = deepFreeze({
  medication_coding_systems,
  medication_dosage_units,
  medication_frequency_types,
  medication_timings,
  medication_order_statuses,
  order_encounter_relations,
  order_origins,
});

/** The system information response: exactly the spec's 14 members. */
export const INFO = deepFreeze({
  loincs,
  specialties,
  encounter_types,
  visit_types,
  provider_roles,
  diagnosis_code_types,
  ...ORDER_LISTS,
  structured_data_field_types,
});

export type InfoResponse = typeof INFO;
export type InfoListName = keyof InfoResponse;

// ---------------------------------------------------------------------------------------------
// Per-category routes, GET /api/v1/info/<path>
// ---------------------------------------------------------------------------------------------

export interface InfoRoute {
  /** Path below /api/v1/info/, without leading or trailing slash. */
  path: string;
  /**
   * The list the route serves, which is also the body's only member, except for `orders`: its body
   * carries every order list, each under its own name.
   */
  key: string;
  body: Readonly<Record<string, unknown>>;
}

/**
 * Member names follow the GET /api/v1/info names so a client can merge route bodies into one info
 * object; the one exception is medication timings, which the spec answers as `{timings}`.
 */
export const INFO_ROUTES = deepFreeze([
  { path: 'loincs', key: 'loincs', body: { loincs } },
  { path: 'specialties', key: 'specialties', body: { specialties } },
  { path: 'encounter-types', key: 'encounter_types', body: { encounter_types } },
  { path: 'visit-types', key: 'visit_types', body: { visit_types } },
  { path: 'provider-roles', key: 'provider_roles', body: { provider_roles } },
  { path: 'diagnosis-code-types', key: 'diagnosis_code_types', body: { diagnosis_code_types } },
  { path: 'orders', key: 'orders', body: ORDER_LISTS },
  { path: 'orders/medication-timings', key: 'timings', body: { timings: medication_timings } },
  { path: 'orders/medication-dosage-units', key: 'medication_dosage_units', body: { medication_dosage_units } },
  {
    path: 'orders/medication-frequency-types',
    key: 'medication_frequency_types',
    body: { medication_frequency_types },
  },
  { path: 'orders/medication-statuses', key: 'medication_order_statuses', body: { medication_order_statuses } },
  { path: 'orders/coding-systems', key: 'medication_coding_systems', body: { medication_coding_systems } },
  { path: 'orders/encounter-relations', key: 'order_encounter_relations', body: { order_encounter_relations } },
  { path: 'orders/origins', key: 'order_origins', body: { order_origins } },
  { path: 'structured-data-field-types', key: 'structured_data_field_types', body: { structured_data_field_types } },
  { path: 'form-templates', key: 'form_templates', body: { form_templates: FORM_TEMPLATES } },
] as const satisfies readonly InfoRoute[]);

export type InfoRoutePath = (typeof INFO_ROUTES)[number]['path'];

/** Looks a route up by the path below /api/v1/info, tolerating the slashes a catch-all segment join leaves. */
export function getInfoRoute(path: string | readonly string[]): InfoRoute | undefined {
  const normalised = (typeof path === 'string' ? path : path.join('/')).replace(/^\/+|\/+$/g, '');
  return INFO_ROUTES.find((route) => route.path === normalised);
}

// ---------------------------------------------------------------------------------------------
// Validation enums
// ---------------------------------------------------------------------------------------------

/**
 * The default zod message would print every allowed value (68 LOINC codes); pointing at the info
 * route is shorter and tells the caller where the current list lives.
 */
function listEnum<const T extends readonly string[]>(values: T, what: string, route: string) {
  return z.enum(values, { error: `not a supported ${what} (see GET /api/v1/info/${route})` });
}

export const LoincCode = listEnum(LOINC_CODES, 'LOINC section code', 'loincs');
export type LoincCode = z.infer<typeof LoincCode>;

export const Specialty = listEnum(SPECIALTY_CODES, 'specialty', 'specialties');
export type Specialty = z.infer<typeof Specialty>;

export const EncounterType = listEnum(ENCOUNTER_TYPE_CODES, 'encounter type', 'encounter-types');
export type EncounterType = z.infer<typeof EncounterType>;

export const VisitType = listEnum(VISIT_TYPE_CODES, 'visit type', 'visit-types');
export type VisitType = z.infer<typeof VisitType>;

export const ProviderRole = listEnum(PROVIDER_ROLE_CODES, 'provider role', 'provider-roles');
export type ProviderRole = z.infer<typeof ProviderRole>;

/** Diagnosis code types a caller may send in the context: HCC is output-only and SNOMED is retired. */
export const DiagnosisCodeType = listEnum(
  DIAGNOSIS_INPUT_CODE_TYPES,
  'diagnosis code type in context (ICD10 or IMO)',
  'diagnosis-code-types',
);
export type DiagnosisCodeType = z.infer<typeof DiagnosisCodeType>;

/** Diagnosis code types the service may emit in structured data. */
export const DiagnosisCodeTypeOutput = listEnum(DIAGNOSIS_CODE_TYPE_CODES, 'diagnosis code type', 'diagnosis-code-types');
export type DiagnosisCodeTypeOutput = z.infer<typeof DiagnosisCodeTypeOutput>;

export const MedicationCodingSystem = listEnum(
  MEDICATION_CODING_SYSTEM_CODES,
  'medication coding system',
  'orders/coding-systems',
);
export type MedicationCodingSystem = z.infer<typeof MedicationCodingSystem>;

export const DosageUnit = listEnum(DOSAGE_UNIT_CODES, 'medication dosage unit', 'orders/medication-dosage-units');
export type DosageUnit = z.infer<typeof DosageUnit>;

export const FrequencyType = listEnum(
  FREQUENCY_TYPE_CODES,
  'medication frequency type',
  'orders/medication-frequency-types',
);
export type FrequencyType = z.infer<typeof FrequencyType>;

export const MedicationTiming = listEnum(MEDICATION_TIMING_CODES, 'medication timing', 'orders/medication-timings');
export type MedicationTiming = z.infer<typeof MedicationTiming>;

export const MedicationOrderStatus = listEnum(
  MEDICATION_ORDER_STATUS_CODES,
  'medication order status',
  'orders/medication-statuses',
);
export type MedicationOrderStatus = z.infer<typeof MedicationOrderStatus>;

export const EncounterRelation = listEnum(
  ENCOUNTER_RELATION_CODES,
  'order encounter relation',
  'orders/encounter-relations',
);
export type EncounterRelation = z.infer<typeof EncounterRelation>;

export const OrderOrigin = listEnum(ORDER_ORIGIN_CODES, 'order origin', 'orders/origins');
export type OrderOrigin = z.infer<typeof OrderOrigin>;

export const FieldType = listEnum(FIELD_TYPE_CODES, 'structured data field type', 'structured-data-field-types');
export type FieldType = z.infer<typeof FieldType>;

export const FormTemplateId = listEnum(FORM_TEMPLATE_IDS, 'form template', 'form-templates');
export type FormTemplateId = z.infer<typeof FormTemplateId>;
