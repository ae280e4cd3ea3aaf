/**
 * The session context a partner sends (patient, provider, visit, pre-charted sections, diagnoses, orders,
 * forms): every leaf optional, structure checked where given. Set whole or merged as a JSON merge patch.
 */
import { z } from 'zod';
import { BirthDate, isCalendarDate } from './dates';
import { text, nonEmpty } from './common';
import { DosageUnit, EncounterRelation, EncounterType, FrequencyType, LoincCode, MedicationCodingSystem, MedicationOrderStatus, MedicationTiming, OrderOrigin, ProviderRole, Specialty, VisitType, FormTemplateId, getFormTemplate, type FormField } from '@/lib/info';

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export const PatientSex = z.enum(['male', 'female', 'other', 'unknown'], { error: 'must be one of male, female, other, unknown' });

/**
 * Every leaf is optional: a partner sends what its EMR knows, and a missing visit type must not make
 * a present chief complaint unusable. Structure (codes, LOINCs, order names) is required where given.
 */
export const PatientContext = z.object({
  dob: BirthDate.optional(),
  sex: PatientSex.optional(),
  emr_patient_id: nonEmpty(255).optional(),
  /** PHI: shown to the clinician to tell visits apart; never logged. */
  name: nonEmpty(200).optional(),
  /** Medical record number, PHI like the name. */
  mrn: nonEmpty(64).optional(),
});

export const ProviderContext = z.object({
  specialty: Specialty.optional(),
  provider_role: ProviderRole.optional(),
});

export const VisitContext = z.object({
  chief_complaint: text(255).optional(),
  reason_for_visit: text(255).optional(),
  encounter_type: EncounterType.optional(),
  visit_type: VisitType.optional(),
});

export const FormValue = z.object({ id: nonEmpty(128), value: z.unknown() });
export type FormValue = z.infer<typeof FormValue>;

/** Why a value does not fit its form field, or null when it does. */
export function formValueProblem(field: FormField, value: unknown): string | null {
  switch (field.type) {
    case 'text':
      return typeof value === 'string' && value.length <= 10_000 ? null : 'must be a string of at most 10000 characters';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'must be a valid date written YYYY-MM-DD';
    case 'radio':
      return typeof value === 'string' && (field.options ?? []).includes(value) ? null : `must be one of: ${(field.options ?? []).join(', ')}`;
    case 'multi_select': {
      if (!Array.isArray(value)) return 'must be an array of options';
      const bad = value.find((v) => typeof v !== 'string' || !(field.options ?? []).includes(v));
      if (bad !== undefined) return `${JSON.stringify(bad)} is not an option; options: ${(field.options ?? []).join(', ')}`;
      if (new Set(value).size !== value.length) return 'must not repeat an option';
      return null;
    }
    default:
      return 'has an unsupported field type';
  }
}

export const PrechartedString = z.object({ type: z.literal('string'), content: text(20_000) });

export const PrechartedStructured = z
  .object({
    type: z.literal('structured'),
    template_id: FormTemplateId,
    values: z.array(FormValue).max(200).optional(),
  })
  .superRefine((item, ctx) => {
    const template = getFormTemplate(item.template_id);
    if (!template || !item.values) return;
    const seen = new Set<string>();
    item.values.forEach((v, i) => {
      const field = template.fields.find((f) => f.id === v.id);
      if (!field) {
        ctx.addIssue({
          code: 'custom',
          path: ['values', i, 'id'],
          message: `${v.id} is not a field of template ${template.template_id}; fields: ${template.fields.map((f) => f.id).join(', ')}`,
        });
        return;
      }
      if (seen.has(v.id)) ctx.addIssue({ code: 'custom', path: ['values', i, 'id'], message: `${v.id} is given twice` });
      seen.add(v.id);
      const problem = formValueProblem(field, v.value);
      if (problem) ctx.addIssue({ code: 'custom', path: ['values', i, 'value'], message: problem });
    });
  });

export const PrechartedContent = z.discriminatedUnion('type', [PrechartedString, PrechartedStructured], {
  error: 'type must be string or structured',
});
export type PrechartedContent = z.infer<typeof PrechartedContent>;

export const SectionRequest = z.object({
  loinc: LoincCode,
  precharted_content: z.array(PrechartedContent).max(50).optional(),
});
export type SectionRequest = z.infer<typeof SectionRequest>;

/** SNOMED gets its own message: it used to be accepted, so callers sending it need to know why it fails. */
export const DiagnosisInputCodeType = z.enum(['ICD10', 'IMO'], {
  error: (iss) =>
    iss.input === 'SNOMED'
      ? 'SNOMED is no longer supported in the diagnosis context; use ICD10 or IMO'
      : 'not a supported diagnosis code type in context (ICD10 or IMO; see GET /api/v1/info/diagnosis-code-types)',
});

/** ICD-10-CM: letter, digit, letter or digit, then an optional dot and up to four more characters. */
export const ICD10_PATTERN = /^[A-TV-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?$/i;

export const DiagnosisInputCode = z
  .object({
    code: nonEmpty(64),
    description: text(1_000).optional(),
    type: DiagnosisInputCodeType,
  })
  .superRefine((c, ctx) => {
    if (c.type === 'ICD10' && !ICD10_PATTERN.test(c.code)) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: `${c.code} is not an ICD-10-CM code` });
    }
  });

export const DiagnosisInput = z.object({
  codes: z.array(DiagnosisInputCode).min(1, 'must hold at least one code').max(20),
  diagnosis_note: text(5_000).optional(),
});

export const DiagnosesContext = z.object({ values: z.array(DiagnosisInput).max(200) });

const RXCUI_PATTERN = /^[0-9]{1,10}$/;
/** NDC in any of the 10-digit hyphenated layouts or the 11-digit billing form. */
const NDC_PATTERN = /^([0-9]{4}-[0-9]{4}-[0-9]{2}|[0-9]{5}-[0-9]{3}-[0-9]{2}|[0-9]{5}-[0-9]{4}-[0-9]{1,2}|[0-9]{10,11})$/;

export const MedicationCode = z
  .object({ code: nonEmpty(32), type: MedicationCodingSystem })
  .superRefine((c, ctx) => {
    const ok = c.type === 'RXCUI' ? RXCUI_PATTERN.test(c.code) : NDC_PATTERN.test(c.code);
    if (!ok) ctx.addIssue({ code: 'custom', path: ['code'], message: `${c.code} is not a valid ${c.type} code` });
  });

export const MedicationOrderInput = z.object({
  drug_name: nonEmpty(255),
  medication_code: MedicationCode.nullable().optional(),
  status: MedicationOrderStatus,
  dosage: z
    .object({
      quantity: z.number().positive('must be positive').max(1_000_000).nullable().optional(),
      unit: DosageUnit.nullable().optional(),
      raw_value: text(255).nullable().optional(),
    })
    .optional(),
  frequency: z
    .object({ raw_value: text(255).nullable().optional(), structured_value: FrequencyType.nullable().optional() })
    .optional(),
  medication_timing: MedicationTiming.nullable().optional(),
  route: text(64).nullable().optional(),
  duration_in_days: z.number().int('must be an integer').min(0).max(3650).nullable().optional(),
  number_of_refills: z.number().int('must be an integer').min(0).max(99).nullable().optional(),
  instructions: text(2_000).nullable().optional(),
  metadata: z.object({ origin: OrderOrigin.optional(), encounter_relation: EncounterRelation.optional() }).optional(),
  linked_diagnosis_codes: z.array(nonEmpty(64)).max(20).optional(),
});
export type MedicationOrderInput = z.infer<typeof MedicationOrderInput>;

export const OrdersContext = z.object({
  medication_orders: z.object({ values: z.array(MedicationOrderInput).max(200) }).optional(),
});

export const EmrContext = z.object({ target_emr: nonEmpty(128).optional() });

export const SessionContext = z
  .object({
    patient: PatientContext.optional(),
    provider: ProviderContext.optional(),
    visit: VisitContext.optional(),
    /** Omitted: the default note sections are generated. */
    sections: z.array(SectionRequest).max(68).optional(),
    diagnoses: DiagnosesContext.optional(),
    orders: OrdersContext.optional(),
    emr: EmrContext.optional(),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.sections?.forEach((s, i) => {
      if (seen.has(s.loinc)) ctx.addIssue({ code: 'custom', path: ['sections', i, 'loinc'], message: `${s.loinc} is listed twice` });
      seen.add(s.loinc);
    });
  })
  .meta({ id: 'SessionContext' });
export type SessionContext = z.infer<typeof SessionContext>;

/**
 * Accepts the context itself, or the same wrapped as `{context: {...}}` (the shape the response uses),
 * so a client can send back what it read.
 */
function unwrapContext(raw: unknown): unknown {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const keys = Object.keys(raw);
    if (keys.length === 1 && keys[0] === 'context') return (raw as { context: unknown }).context;
  }
  return raw;
}

export const SetContextRequest = z.preprocess(unwrapContext, SessionContext);

/**
 * PATCH body: objects merge member by member, arrays replace, and `null` removes a member (JSON merge
 * patch, RFC 7396). The merged result is validated again as a whole context.
 */
export const PatchContextRequest = z
  .preprocess(
    unwrapContext,
    z.object({
      // name and mrn may be cleared with null (the clinician app edits them after the visit).
      patient: PatientContext.extend({ name: PatientContext.shape.name.nullable(), mrn: PatientContext.shape.mrn.nullable() }).partial().nullable().optional(),
      provider: ProviderContext.partial().nullable().optional(),
      visit: VisitContext.partial().nullable().optional(),
      sections: z.array(SectionRequest).max(68).nullable().optional(),
      diagnoses: DiagnosesContext.partial().nullable().optional(),
      orders: OrdersContext.partial().nullable().optional(),
      emr: EmrContext.partial().nullable().optional(),
    }),
  )
  .meta({ id: 'PatchSessionContext' });
export type PatchContextRequest = z.infer<typeof PatchContextRequest>;

export const ContextResponse = z.object({ context: SessionContext }).meta({ id: 'SessionContextResponse' });
