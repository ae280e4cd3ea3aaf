import type { SpeakerRole } from '../speech/types';
import type { TranscriptWord } from '@/lib/transcript/confidence';

export interface TranscriptLine {
  transcriptId: string;
  speaker: SpeakerRole;
  text: string;
  startMs: number;
  endMs: number;
  /** 0–1 recognition confidence of the entry, when the speech engine gave one. */
  confidence?: number;
  /** Recognised words with their confidence; spans below LOW_CONFIDENCE are never copied verbatim. */
  words?: TranscriptWord[];
}

export interface NoteSectionRequest {
  loinc: string;
  /** Prior section text or Embedded Form templates supplied in the session context. */
  precharted?: Array<
    | { type: 'string'; content: string }
    | { type: 'structured'; template_id: string; values?: Array<{ id: string; value: unknown }> }
  >;
}

export interface NotePreferences {
  verbosity: 'CONCISE' | 'BALANCED' | 'DETAILED';
  sectionFormat: Record<string, 'NARRATIVE' | 'BULLETED'>;
}

export interface NoteRequest {
  transcript: TranscriptLine[];
  sections: NoteSectionRequest[];
  preferences: NotePreferences;
  visit?: { chief_complaint?: string; reason_for_visit?: string; visit_type?: string; encounter_type?: string };
  patient?: { dob?: string; sex?: string };
  specialty?: string;
  /** Medications and problems known from the EMR (CKG ingestion), by name and code. */
  emrContext?: {
    medications: Array<{ name: string; rxcui?: string; status?: string }>;
    problems: Array<{ name: string; code?: string }>;
    /** Additive (issue 29): active allergies on the record, by substance (RXCUI when coded) and reactions. */
    allergies?: Array<{ substance: string; rxcui?: string; reactions?: string[] }>;
  };
  contextDiagnoses?: Array<{ codes: Array<{ code: string; description: string; type: string }>; diagnosis_note?: string }>;
  contextMedicationOrders?: MedicationOrder[];
  hccModel?: 'V28' | 'V24';
  /** The session the note is for: only for log lines (issue 32's guard logs counts by session, never text). */
  sessionId?: string;
}

export interface NoteSection {
  title: string;
  content: string;
  loinc_code: string;
  source_transcripts: string[];
  /** Extension: each sentence of `content` with the transcript entries it was written from. */
  sentences?: Array<{
    text: string;
    source_transcripts: string[];
    /** Fixed wording from the chosen template or preferences (no transcript span states it); issue 27. */
    template?: boolean;
  }>;
}

export interface DiagnosisCode {
  code: string;
  description: string;
  type: 'ICD10' | 'HCC' | 'IMO';
}

export interface Diagnosis {
  codes: DiagnosisCode[];
  diagnosis_note: string;
  laterality_indicator?: 'LEFT' | 'RIGHT' | 'BILATERAL';
  /** Extension: the transcript entries that name or imply this diagnosis (issue 27). */
  source_transcripts?: string[];
}

export interface MedicationOrder {
  drug_name: string;
  medication_code: { code: string; type: 'RXCUI' | 'NDC' } | null;
  status: string;
  dosage: { quantity: number | null; unit: string | null; raw_value: string | null };
  frequency: { raw_value: string | null; structured_value: string | null };
  medication_timing: string | null;
  route: string | null;
  duration_in_days: number | null;
  number_of_refills: number | null;
  instructions: string | null;
  metadata: { origin: string; encounter_relation: string };
  linked_diagnosis_codes: string[];
  /** Extension: the transcript entries that name this order (issue 27). */
  source_transcripts?: string[];
  /** Additive (issue 29): taken only when needed ("as needed for pain"), and for what. */
  as_needed?: boolean;
  as_needed_reason?: string | null;
  /** Additive (issue 29): the dose before a change ("increase lisinopril from 10 to 20 mg" records 10 mg). */
  previous_dosage?: { quantity: number | null; unit: string | null; raw_value: string | null } | null;
}

/** Additive (issue 29): an allergy or intolerance said in the visit or given in its context. */
export interface Allergy {
  substance: string;
  /** RxNorm ingredient (RXCUI) or a drug class; null when the substance is not in the code sets. */
  substance_code: { code: string; type: 'RXCUI' | 'DRUG_CLASS'; display?: string } | null;
  reaction: string | null;
  /** CONFIRMED: the clinician states or confirms it; REPORTED: only the patient or the context says so. */
  verification: 'CONFIRMED' | 'REPORTED';
  source_transcripts?: string[];
}

/** Additive (issue 29): a lab or imaging order, coded with LOINC from the curated orderables table. */
export interface ServiceOrder {
  name: string;
  category: 'LAB' | 'IMAGING';
  /** Null when the order matched no orderable: it is kept as the words said. */
  code: { code: string; type: 'LOINC'; display: string } | null;
  /** When it is to be done, as said ("in three months", "before the next visit"); null when not said. */
  timing: string | null;
  source_transcripts?: string[];
}

export interface SectionStructuredValues {
  loinc: string;
  template_id: string;
  values: Array<{ id: string; value: unknown }>;
}

export interface StructuredData {
  diagnoses: { values: Diagnosis[] };
  orders: {
    medication_orders: { values: MedicationOrder[]; partial_values: MedicationOrder[] };
    /** Additive (issue 29): lab and imaging orders. */
    service_orders: { values: ServiceOrder[] };
  };
  /** Additive (issue 29). */
  allergies: { values: Allergy[] };
  section_structured_values: SectionStructuredValues[];
}

/**
 * Something the engine (or a guard after it) kept out of the note, for the review step before signing:
 * a low-confidence span of the recogniser, a fact no transcript span supports (issue 27), or an answer to a
 * question the note depends on that could not be read (an allergy answer heard as "self a drags kidney hives").
 */
export interface LeftOutItem {
  reason: 'LOW_CONFIDENCE' | 'UNSUPPORTED' | 'NOT_UNDERSTOOD';
  kind: 'sentence' | 'span' | 'diagnosis' | 'medication_order' | 'allergy' | 'service_order';
  text: string;
  loinc_code?: string;
  source_transcripts: string[];
}

export interface NoteResult {
  summary: NoteSection[];
  structured_data: StructuredData;
  /** Extension: what was left out of the note and why (issue 27); absent when nothing was. */
  left_out?: LeftOutItem[];
  /**
   * Extension: set when the configured engine failed and the embedded engine wrote this note instead
   * (NOTES_FALLBACK=embedded; issue 32). `reason` is the failure, in our words, never the model's output.
   */
  fallback?: { engine: string; from: string; reason: string };
}

export type RewriteInstruction = 'CONCISE' | 'VERBOSE' | 'PATIENT_FRIENDLY';

export interface RewriteRequest {
  selectedText: string;
  contextBefore?: string;
  contextAfter?: string;
  instruction: RewriteInstruction;
  loincCode?: string;
}

export interface NotesEngine {
  readonly name: string;
  generate(request: NoteRequest): Promise<NoteResult>;
  rewrite(request: RewriteRequest): Promise<string>;
}
