/**
 * Ambient session contracts: request bodies the session API validates and the response shapes it
 * (and the realtime pipeline, which stores transcript rows and note content in exactly these shapes)
 * produces. Shared by handlers, the OpenAPI document and the web app, so plain zod only.
 */
import { z } from 'zod';
import { Uuid } from './common';
import { SESSION_STATUSES } from './session-status';
import { NoteStatus } from './note-status';
import {
  DiagnosisCodeTypeOutput,
  DosageUnit,
  EncounterRelation,
  EncounterType,
  FrequencyType,
  LoincCode,
  MedicationCodingSystem,
  MedicationOrderStatus,
  MedicationTiming,
  OrderOrigin,
  ProviderRole,
  Specialty,
  VisitType,
  FormTemplateId,
  getFormTemplate,
  type FormField,
} from '@/lib/info';

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const nonEmpty = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

/** A real calendar date (2023-02-30 is refused), written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Today's date as YYYY-MM-DD, one day ahead of UTC so a birth date "today" east of UTC is accepted. */
function latestAcceptableDate(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

export const CalendarDate = z.string().refine(isCalendarDate, 'must be a valid date written YYYY-MM-DD');

export const BirthDate = CalendarDate.refine((v) => !isCalendarDate(v) || v <= latestAcceptableDate(), 'must not be in the future').refine(
  (v) => !isCalendarDate(v) || v >= '1850-01-01',
  'must be after 1850-01-01',
);

// ---------------------------------------------------------------------------------------------
// Create
// ---------------------------------------------------------------------------------------------

export const CreateSessionRequest = z
  .object({
    ambient_session_id: Uuid.optional(),
    encounter_id: Uuid.optional(),
    /** Deprecated alias of encounter_id. */
    session_group_id: Uuid.optional().meta({ deprecated: true }),
    emr_encounter_id: nonEmpty(255).optional(),
    /** Deprecated: multilingual is always on; the value is ignored. */
    multilingual: z.boolean().optional().meta({ deprecated: true }),
  })
  .refine((b) => !b.encounter_id || !b.session_group_id || b.encounter_id === b.session_group_id, {
    message: 'must equal encounter_id when both are given (session_group_id is the deprecated name of encounter_id)',
    path: ['session_group_id'],
  })
  .meta({ id: 'CreateSessionRequest' });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const CreateSessionResponse = z
  .object({ ambient_session_id: z.uuid(), note_id: z.uuid(), encounter_id: z.uuid() })
  .meta({ id: 'CreateSessionResponse' });
export type CreateSessionResponse = z.infer<typeof CreateSessionResponse>;

export const SessionIdParams = z.object({ ambient_session_id: Uuid });
export const EncounterIdParams = z.object({ encounter_id: Uuid });

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

// ---------------------------------------------------------------------------------------------
// Metadata (deprecated)
// ---------------------------------------------------------------------------------------------

export const SessionMetadataRequest = z
  .object({
    note_sections: z.array(z.object({ title: text(255).optional(), description: text(2_000).optional() })).max(68).optional(),
    patient_dob: BirthDate.optional(),
    patient_sex: PatientSex.optional(),
    provider_specialty: Specialty.optional(),
  })
  .meta({ id: 'SessionMetadataRequest', deprecated: true });
export type SessionMetadataRequest = z.infer<typeof SessionMetadataRequest>;

// ---------------------------------------------------------------------------------------------
// Status
// ---------------------------------------------------------------------------------------------

export const SessionStatusResponse = z.object({ status: z.enum(SESSION_STATUSES) }).meta({ id: 'SessionStatusResponse' });

// ---------------------------------------------------------------------------------------------
// Transcript
// ---------------------------------------------------------------------------------------------

export const Speaker = z.enum(['CLINICIAN', 'PATIENT', 'UNKNOWN']);
export type Speaker = z.infer<typeof Speaker>;

/** Where a transcript row came from: the streaming recogniser, or the finalisation pass that replaces it. */
export const TranscriptSource = z.enum(['live', 'final']);
export type TranscriptSource = z.infer<typeof TranscriptSource>;

export const Duration = z
  .object({ hours: z.number().int(), minutes: z.number().int(), seconds: z.number().int(), nanos: z.number().int() })
  .meta({ id: 'Duration' });
export type Duration = z.infer<typeof Duration>;

/** RFC 3339, UTC, exactly nine fractional digits: 2026-02-01T10:00:01.250000000Z. */
export const NanoTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);

export const TranscriptWordDto = z
  .object({ text: z.string(), start_offset: Duration, end_offset: Duration, confidence: z.number().min(0).max(1) })
  .meta({ id: 'TranscriptWord' });
export type TranscriptWordDto = z.infer<typeof TranscriptWordDto>;

export const TranscriptEntry = z
  .object({
    transcript_id: z.string(),
    recording_id: z.uuid(),
    lang_id: z.string(),
    transcript: z.string(),
    start_time: NanoTimestamp,
    end_time: NanoTimestamp,
    start_offset: Duration,
    end_offset: Duration,
    /** Extension: who spoke. */
    speaker: Speaker,
    /** Extension (DESIGN §12): 0–1 recognition confidence of the entry, when the engine gave one. */
    confidence: z.number().min(0).max(1).optional(),
    /** Extension: recognised words with offsets and 0–1 confidence; below 0.5 the recogniser was unsure. */
    words: z.array(TranscriptWordDto).optional(),
  })
  .meta({ id: 'TranscriptEntry' });
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

export const TranscriptResponse = z.object({ final_transcript: z.array(TranscriptEntry) }).meta({ id: 'TranscriptResponse' });
export type TranscriptResponse = z.infer<typeof TranscriptResponse>;

// ---------------------------------------------------------------------------------------------
// Content and structured data (stored by the pipeline in session_content in exactly these shapes)
// ---------------------------------------------------------------------------------------------

export const SummarySection = z
  .object({
    title: z.string(),
    content: z.string(),
    loinc_code: z.string(),
    source_transcripts: z.array(z.string()),
    /** Extension: each sentence of content with the transcript entries it was written from. */
    sentences: z.array(z.object({ text: z.string(), source_transcripts: z.array(z.string()) })).optional(),
  })
  .meta({ id: 'SummarySection' });
export type SummarySection = z.infer<typeof SummarySection>;

export const DiagnosisCodeOut = z.object({ code: z.string(), description: z.string(), type: DiagnosisCodeTypeOutput });

export const DiagnosisOut = z
  .object({
    codes: z.array(DiagnosisCodeOut),
    diagnosis_note: z.string(),
    laterality_indicator: z.enum(['LEFT', 'RIGHT', 'BILATERAL']).optional(),
  })
  .meta({ id: 'Diagnosis' });

export const MedicationOrder = z
  .object({
    drug_name: z.string(),
    medication_code: z.object({ code: z.string(), type: MedicationCodingSystem }).nullable(),
    status: z.string(),
    dosage: z.object({ quantity: z.number().nullable(), unit: z.string().nullable(), raw_value: z.string().nullable() }),
    frequency: z.object({ raw_value: z.string().nullable(), structured_value: z.string().nullable() }),
    medication_timing: z.string().nullable(),
    route: z.string().nullable(),
    duration_in_days: z.number().nullable(),
    number_of_refills: z.number().nullable(),
    instructions: z.string().nullable(),
    metadata: z.object({ origin: z.string(), encounter_relation: z.string() }),
    linked_diagnosis_codes: z.array(z.string()),
  })
  .meta({ id: 'MedicationOrder' });
export type MedicationOrder = z.infer<typeof MedicationOrder>;

export const SectionStructuredValues = z
  .object({ loinc: z.string(), template_id: z.string(), values: z.array(z.object({ id: z.string(), value: z.unknown() })) })
  .meta({ id: 'SectionStructuredValues' });

export const StructuredData = z
  .object({
    diagnoses: z.object({ values: z.array(DiagnosisOut) }),
    orders: z.object({ medication_orders: z.object({ values: z.array(MedicationOrder), partial_values: z.array(MedicationOrder) }) }),
    section_structured_values: z.array(SectionStructuredValues),
  })
  .meta({ id: 'StructuredData' });
export type StructuredData = z.infer<typeof StructuredData>;

export function emptyStructuredData(): StructuredData {
  return { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] } }, section_structured_values: [] };
}

export const ContentResponse = z
  .object({
    summary: z.array(SummarySection),
    structured_data: StructuredData,
    /** Additive: sign-off state of a session's note (absent on encounter-level content). */
    note_status: NoteStatus.optional(),
    /** Additive: when the note was last signed, or null. */
    signed_at: z.string().nullable().optional(),
  })
  .meta({ id: 'SessionContentResponse' });
export type ContentResponse = z.infer<typeof ContentResponse>;

export const StructuredDataResponse = z.object({ structured_data: StructuredData }).meta({ id: 'StructuredDataResponse' });
export type StructuredDataResponse = z.infer<typeof StructuredDataResponse>;

// ---------------------------------------------------------------------------------------------
// Recordings
// ---------------------------------------------------------------------------------------------

const BooleanQuery = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const RecordingQuery = z.object({ download: BooleanQuery.optional() });

export const RecordingItem = z
  .object({ recording_id: z.uuid(), presigned_url: z.string(), expires_at: z.string(), sequence_number: z.number().int() })
  .meta({ id: 'Recording' });

export const RecordingListResponse = z
  .object({
    recordings: z.array(RecordingItem),
    /** True while the session is still capturing audio: the recording keeps growing. */
    is_streamable: z.boolean(),
  })
  .meta({ id: 'RecordingListResponse' });
export type RecordingListResponse = z.infer<typeof RecordingListResponse>;

export const RecordingAudioParams = z.object({ recording_id: Uuid });
/** Checked by the handler rather than here: any malformed or missing signature part is a 403, like a wrong one. */
export const RecordingAudioQuery = z.object({
  expires: z.string().max(32).optional(),
  sig: z.string().max(256).optional(),
  download: z.string().max(8).optional(),
});

// ---------------------------------------------------------------------------------------------
// Preferences
// ---------------------------------------------------------------------------------------------

export const Verbosity = z.enum(['CONCISE', 'BALANCED', 'DETAILED'], { error: 'must be one of CONCISE, BALANCED, DETAILED' });
export const SectionStyle = z.enum(['NARRATIVE', 'BULLETED'], { error: 'must be NARRATIVE or BULLETED' });

export const SectionFormat = z.array(z.object({ loinc: LoincCode, style: SectionStyle })).max(68);

export const PersonalizationPreference = z.object({ verbosity: Verbosity, section_format: SectionFormat });
export type PersonalizationPreference = z.infer<typeof PersonalizationPreference>;

export const PreferencesResponse = z
  .object({ personalization_preference: PersonalizationPreference })
  .meta({ id: 'UserPreferences' });
export type PreferencesResponse = z.infer<typeof PreferencesResponse>;

/** Members given replace the stored ones; section_format is replaced as a whole list. */
export const PatchPreferencesRequest = z
  .object({
    personalization_preference: z
      .object({ verbosity: Verbosity.optional(), section_format: SectionFormat.optional() })
      .superRefine((p, ctx) => {
        const seen = new Set<string>();
        p.section_format?.forEach((s, i) => {
          if (seen.has(s.loinc)) ctx.addIssue({ code: 'custom', path: ['section_format', i, 'loinc'], message: `${s.loinc} is listed twice` });
          seen.add(s.loinc);
        });
      }),
  })
  .meta({ id: 'PatchUserPreferences' });
export type PatchPreferencesRequest = z.infer<typeof PatchPreferencesRequest>;

export const DEFAULT_PREFERENCES: PersonalizationPreference = Object.freeze({ verbosity: 'BALANCED', section_format: [] }) as PersonalizationPreference;

// ---------------------------------------------------------------------------------------------
// Rewrite
// ---------------------------------------------------------------------------------------------

export const RewriteInstruction = z.enum(['CONCISE', 'VERBOSE', 'PATIENT_FRIENDLY'], {
  error: 'must be one of CONCISE, VERBOSE, PATIENT_FRIENDLY',
});

const offset = z.number().int('must be an integer').min(0, 'must not be negative');

export const RewriteRequest = z
  .object({
    selected_text: z.string().min(1, 'must not be empty').max(10_000, 'must be at most 10000 characters'),
    context_before: text(20_000).optional(),
    context_after: text(20_000).optional(),
    selection_start: offset,
    selection_end: offset,
    instruction: RewriteInstruction,
    ambient_session_id: Uuid.optional(),
    loinc_code: LoincCode.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.selection_end < b.selection_start) {
      ctx.addIssue({ code: 'custom', path: ['selection_end'], message: 'must not be before selection_start' });
    } else if (b.selection_end - b.selection_start !== b.selected_text.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['selection_end'],
        message: `selection_end - selection_start (${b.selection_end - b.selection_start}) must equal the length of selected_text (${b.selected_text.length})`,
      });
    }
  })
  .meta({ id: 'RewriteRequest' });
export type RewriteRequest = z.infer<typeof RewriteRequest>;

export const RewriteResponse = z
  .object({ rewritten_text: z.string(), selection_start: z.number().int(), selection_end: z.number().int(), request_id: z.string() })
  .meta({ id: 'RewriteResponse' });
export type RewriteResponse = z.infer<typeof RewriteResponse>;
