import type { ContentResponse } from '@/lib/contracts/sessions';
import type { NoteStatus } from '@/lib/contracts/note-status';
import type { PartContent } from '../../recordings/part-content';

/** What one export is built from, read once from the database (load-*-fhir-source.ts). */
export interface FhirExportSource {
  /** PUBLIC_BASE_URL: identifier namespaces and fullUrls hang off it. */
  base: string;
  partnerId: string;
  scope: { kind: 'session' | 'encounter'; id: string };
  /** The note's id: the Composition's id for a session, derived from the encounter for an encounter. */
  compositionId: string;
  encounterId: string;
  emrEncounterId: string | null;
  /** Terminal status of the session (an encounter export is over completed sessions: `completed`). */
  status: string;
  /** The session context as stored (for an encounter, its latest session's); read defensively. */
  context: ExportContext;
  provider: { id: string; name: string; email: string | null; partnerProviderId: string | null };
  content: ContentResponse;
  /** Notes engine names that wrote the content, in session order, without repeats. */
  engines: string[];
  serviceVersion: string;
  hccModel: 'V28' | 'V24';
  noteStatus: NoteStatus;
  signedAt: Date | null;
  /** When the content was last written (generation or a clinician's edit). */
  updatedAt: Date;
  period: { start: Date | null; end: Date | null };
  recordings: ExportRecording[];
}

export interface ExportRecording {
  id: string;
  sessionId: string;
  sequenceNumber: number;
  /** START_TIME: when the part's first sample was captured. */
  startTime: Date | null;
  durableBytes: number;
  /** What it holds beside the parts before it, from the stored audio (server/recordings/part-content.ts). */
  content: PartContent;
}

/** The parts of the session context the export reads; every member optional, as a partner may omit any. */
export interface ExportContext {
  patient?: {
    dob?: string;
    sex?: string;
    emr_patient_id?: string;
    /** Added by the sign-off work (issue "workflow"): optional, used when present. */
    name?: string | { given?: string | string[]; family?: string; text?: string };
    mrn?: string;
  };
  provider?: { specialty?: string; provider_role?: string };
  visit?: { chief_complaint?: string; reason_for_visit?: string; encounter_type?: string; visit_type?: string };
}
