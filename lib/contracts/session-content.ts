/**
 * What a session produces: transcript rows and note content with structured data. The realtime pipeline
 * stores them in exactly these shapes, and the session API answers them.
 */
import { z } from 'zod';
import { NoteStatus } from './note-status';
import { DiagnosisCodeTypeOutput, MedicationCodingSystem } from '@/lib/info';
import { PART_START_REASONS } from './stream-protocol';

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
    /** Additive (issue 30 item 6): decoded without the session's vocabulary, which could not be built; absent otherwise. */
    unbiased: z
      .literal(true)
      .optional()
      .describe("Additive: true when this entry was decoded without the session's vocabulary (EMR medications and problems), which the speech engine could not build; drug names may be missed. Absent otherwise"),
  })
  .meta({ id: 'TranscriptEntry' });
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/**
 * Additive: a stretch of the visit's wall-clock time no recording part holds, between two consecutive parts
 * (after a page reload the recorder waits for "Continue recording"; a pause; sound the microphone never
 * delivered). The offsets of the entries run on without it, so this is the only place it shows.
 */
export const RecordingGap = z
  .object({
    // Described in the object's description: a described Duration would be inlined instead of a $ref to Duration.
    at_offset: Duration,
    start_time: NanoTimestamp.describe("Wall-clock time the earlier part's audio ends (its START_TIME plus its stored audio)"),
    end_time: NanoTimestamp.describe("Wall-clock time the next part's audio begins (its START_TIME)"),
    duration_ms: z.number().int().min(1000).describe('end_time minus start_time, in milliseconds'),
    cause: z
      .enum(PART_START_REASONS)
      .nullable()
      .describe(
        "Additive: why nothing was recorded, as the recorder told it with the next part's START_TIME (its reason): PAUSED, the clinician paused recording; PAGE_RELOADED, the recording page was reloaded or reopened and recording continued from it; CAPTURE_STALLED, the device delivered no sound from the microphone for a while (its audio processing stalled); MICROPHONE_DISCONNECTED, the microphone was disconnected and recording was started again. Null when the recorder gave no reason (an older recorder, or another client)",
      ),
  })
  .meta({
    id: 'RecordingGap',
    description:
      "Wall-clock time between two consecutive recording parts of the session that was not recorded, so nothing said then is in the transcript or the note. at_offset is where it falls on the session's audio timeline (where the next part begins; the same timeline as the entries' start_offset). Derived from each part's START_TIME and stored audio; gaps under 1 s (clock jitter) and parts without a START_TIME are left out.",
  });
export type RecordingGap = z.infer<typeof RecordingGap>;

export const TranscriptResponse = z
  .object({
    final_transcript: z.array(TranscriptEntry),
    recording_gaps: z
      .array(RecordingGap)
      .describe(
        "Additive: the stretches of the visit that were not recorded between two recording parts (the browser recorder starts a part after a page reload, a pause of 1 s or more, or sound the microphone never delivered), in session order; the entries' offsets run on without them. Always present; empty when the parts are contiguous",
      ),
  })
  .meta({ id: 'TranscriptResponse' });
export type TranscriptResponse = z.infer<typeof TranscriptResponse>;

// ---------------------------------------------------------------------------------------------
// Content and structured data (stored by the pipeline in session_content in exactly these shapes)
// ---------------------------------------------------------------------------------------------

/**
 * Additive (issue 27): the transcript entries a sentence, diagnosis or order came from, and the stretch of the
 * session's audio they cover (the same timeline as the transcript's start_offset and end_offset). Null when no
 * transcript entry supports it.
 */
export const Evidence = z
  .object({
    transcript_ids: z.array(z.string()).describe('transcript_id of each entry, in the order spoken'),
    start_ms: z.number().int().min(0).describe("start of the earliest entry, in ms on the session's audio timeline"),
    end_ms: z.number().int().min(0).describe('end of the latest entry, in ms on the same timeline'),
  })
  .meta({ id: 'Evidence' });
export type Evidence = z.infer<typeof Evidence>;

const evidenceField = Evidence.nullable()
  .optional()
  .describe('Additive: the transcript entries this came from and their time range; null when no entry supports it');

export const NoteSentence = z
  .object({
    text: z.string(),
    source_transcripts: z.array(z.string()),
    /** Additive (issue 27): fixed wording from the chosen template or preferences; no transcript span states it. */
    template: z.boolean().optional().describe('true for fixed wording from the template or preferences, not from the visit'),
    evidence: evidenceField,
  })
  .meta({ id: 'NoteSentence' });
export type NoteSentence = z.infer<typeof NoteSentence>;

export const SummarySection = z
  .object({
    title: z.string(),
    content: z.string(),
    loinc_code: z.string(),
    source_transcripts: z.array(z.string()),
    /** Extension: each sentence of content with the transcript entries it was written from (dropped when the clinician edits the section). */
    sentences: z.array(NoteSentence).optional(),
  })
  .meta({ id: 'SummarySection' });
export type SummarySection = z.infer<typeof SummarySection>;

export const DiagnosisCodeOut = z.object({ code: z.string(), description: z.string(), type: DiagnosisCodeTypeOutput });

export const DiagnosisOut = z
  .object({
    codes: z.array(DiagnosisCodeOut),
    diagnosis_note: z.string(),
    laterality_indicator: z.enum(['LEFT', 'RIGHT', 'BILATERAL']).optional(),
    /** Additive (issue 27): the transcript entries that name or imply the diagnosis. */
    source_transcripts: z.array(z.string()).optional(),
    evidence: evidenceField,
  })
  .meta({ id: 'Diagnosis' });

const Dosage = z.object({ quantity: z.number().nullable(), unit: z.string().nullable(), raw_value: z.string().nullable() });

export const MedicationOrder = z
  .object({
    drug_name: z.string(),
    medication_code: z.object({ code: z.string(), type: MedicationCodingSystem }).nullable(),
    status: z.string(),
    dosage: Dosage,
    frequency: z.object({ raw_value: z.string().nullable(), structured_value: z.string().nullable() }),
    medication_timing: z.string().nullable(),
    route: z.string().nullable(),
    duration_in_days: z.number().nullable(),
    number_of_refills: z.number().nullable(),
    instructions: z.string().nullable(),
    metadata: z.object({ origin: z.string(), encounter_relation: z.string() }),
    linked_diagnosis_codes: z.array(z.string()),
    /** Additive (issue 27): the transcript entries that name the order. */
    source_transcripts: z.array(z.string()).optional(),
    evidence: evidenceField,
    /** Additive (issue 29): taken only when needed, and for what (FHIR Dosage.asNeeded[x]). */
    as_needed: z.boolean().optional().describe('Additive: true when taken only as needed ("as needed for pain")'),
    as_needed_reason: z.string().nullable().optional().describe('Additive: what it is taken for when needed ("pain"); null when not said'),
    previous_dosage: Dosage.nullable()
      .optional()
      .describe('Additive: the dose before this change (status CHANGED: "from 10 to 20 mg" records 10 mg); null when not said'),
  })
  .meta({ id: 'MedicationOrder' });
export type MedicationOrder = z.infer<typeof MedicationOrder>;

/** Additive (issue 29): an allergy or intolerance said in the visit or given in its context. */
export const Allergy = z
  .object({
    substance: z.string().describe('the substance as said ("penicillin")'),
    substance_code: z
      .object({
        code: z.string(),
        type: z.enum(['RXCUI', 'DRUG_CLASS']).describe('RXCUI: RxNorm ingredient; DRUG_CLASS: a drug class (e.g. sulfonamide antibiotics)'),
        display: z.string().optional(),
      })
      .nullable()
      .describe('null when the substance is not in the code sets'),
    reaction: z.string().nullable().describe('the reaction as said ("rash"); null when not said'),
    verification: z
      .enum(['CONFIRMED', 'REPORTED'])
      .describe('CONFIRMED: the clinician states or confirms it; REPORTED: only the patient or the session context says so'),
    source_transcripts: z.array(z.string()).optional(),
    evidence: evidenceField,
  })
  .meta({ id: 'Allergy' });
export type Allergy = z.infer<typeof Allergy>;

/** Additive (issue 29): a lab or imaging order, coded with LOINC from the curated orderables table. */
export const ServiceOrder = z
  .object({
    name: z.string().describe('the order as said or as the table names it ("basic metabolic panel")'),
    category: z.enum(['LAB', 'IMAGING']),
    code: z
      .object({ code: z.string(), type: z.literal('LOINC'), display: z.string() })
      .nullable()
      .describe('null when no orderable matched: the order is kept as text'),
    timing: z.string().nullable().describe('when it is to be done, as said ("in three months"); null when not said'),
    source_transcripts: z.array(z.string()).optional(),
    evidence: evidenceField,
  })
  .meta({ id: 'ServiceOrder' });
export type ServiceOrder = z.infer<typeof ServiceOrder>;

export const SectionStructuredValues = z
  .object({ loinc: z.string(), template_id: z.string(), values: z.array(z.object({ id: z.string(), value: z.unknown() })) })
  .meta({ id: 'SectionStructuredValues' });

export const StructuredData = z
  .object({
    diagnoses: z.object({ values: z.array(DiagnosisOut) }),
    orders: z.object({
      medication_orders: z.object({ values: z.array(MedicationOrder), partial_values: z.array(MedicationOrder) }),
      /** Additive (issue 29); absent in data stored before it, read as empty. */
      service_orders: z
        .object({ values: z.array(ServiceOrder) })
        .default({ values: [] })
        .describe('Additive: lab and imaging orders, LOINC-coded where the orderables table matches'),
    }),
    /** Additive (issue 29); absent in data stored before it, read as empty. */
    allergies: z.object({ values: z.array(Allergy) }).default({ values: [] }).describe('Additive: allergies and intolerances'),
    section_structured_values: z.array(SectionStructuredValues),
  })
  .meta({ id: 'StructuredData' });
export type StructuredData = z.infer<typeof StructuredData>;

export function emptyStructuredData(): StructuredData {
  return {
    diagnoses: { values: [] },
    orders: { medication_orders: { values: [], partial_values: [] }, service_orders: { values: [] } },
    allergies: { values: [] },
    section_structured_values: [],
  };
}

/**
 * Structured data as stored, with every list added since it was stored (allergies, service orders: issue 29)
 * read as empty, so data written before an additive list still reads whole.
 */
export function storedStructuredData(stored: unknown): StructuredData {
  const sd = (stored ?? {}) as Partial<StructuredData>;
  const empty = emptyStructuredData();
  return {
    diagnoses: sd.diagnoses ?? empty.diagnoses,
    orders: {
      medication_orders: { ...empty.orders.medication_orders, ...(sd.orders?.medication_orders ?? {}) },
      service_orders: sd.orders?.service_orders ?? empty.orders.service_orders,
    },
    allergies: sd.allergies ?? empty.allergies,
    section_structured_values: sd.section_structured_values ?? [],
  };
}

export const ContentResponse = z
  .object({
    summary: z.array(SummarySection),
    structured_data: StructuredData,
    /** Additive: sign-off state of a session's note (absent on encounter-level content). */
    note_status: NoteStatus.optional(),
    /** Additive (issue 29): the version of the note's structured data, which a change addressed by position carries. */
    structured_data_version: z
      .string()
      .optional()
      .describe('Additive: version of this note\'s structured data; PUT and DELETE …/structured-data/{kind}/{position} carry it as ?version= (absent on encounter-level content)'),
    /** Additive: when the note was last signed, or null. */
    signed_at: z.string().nullable().optional(),
    /**
     * Additive: why the service ended the visit's audio itself. `abandoned`: its stream dropped and no stream or
     * EOF came back for ABANDONED_AFTER, so the note was written from the audio stored until then. Absent when
     * the client ended the visit.
     */
    ended_reason: z
      .enum(['abandoned'])
      .describe('Set when the service ended the audio itself: abandoned = no stream and no EOF for ABANDONED_AFTER; the note covers the audio stored until then')
      .optional(),
  })
  .meta({ id: 'SessionContentResponse' });
export type ContentResponse = z.infer<typeof ContentResponse>;

export const StructuredDataResponse = z
  .object({
    structured_data: StructuredData,
    structured_data_version: z.string().optional().describe('Additive (issue 29): as in the session content; absent on encounter-level structured data'),
  })
  .meta({ id: 'StructuredDataResponse' });
export type StructuredDataResponse = z.infer<typeof StructuredDataResponse>;
