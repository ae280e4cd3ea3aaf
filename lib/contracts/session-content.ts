/**
 * What a session produces: transcript rows and note content with structured data. The realtime pipeline
 * stores them in exactly these shapes, and the session API answers them.
 */
import { z } from 'zod';
import { NoteStatus } from './note-status';
import { DiagnosisCodeTypeOutput, MedicationCodingSystem } from '@/lib/info';

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
    /** Additive (issue 27): the transcript entries that name the order. */
    source_transcripts: z.array(z.string()).optional(),
    evidence: evidenceField,
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

export const StructuredDataResponse = z.object({ structured_data: StructuredData }).meta({ id: 'StructuredDataResponse' });
export type StructuredDataResponse = z.infer<typeof StructuredDataResponse>;
