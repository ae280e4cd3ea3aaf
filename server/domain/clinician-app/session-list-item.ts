import type { SessionListItem } from '@/lib/contracts/clinician';
import type { NoteStatus } from '@/lib/contracts/note-status';
import type { SessionStatus } from '@/lib/contracts/session-status';
import { ambientSessions, sessionContent } from '../../db/schema';

/** The columns every visits list selects: the session left-joined to its note's sign-off state. */
export const sessionListColumns = {
  id: ambientSessions.id,
  encounterId: ambientSessions.encounterId,
  status: ambientSessions.status,
  createdAt: ambientSessions.createdAt,
  context: ambientSessions.context,
  audioMs: ambientSessions.audioMs,
  noteStatus: sessionContent.noteStatus,
  noteLocked: sessionContent.noteLocked,
};

export interface SessionListRow {
  id: string;
  encounterId: string;
  status: string;
  createdAt: Date;
  context: unknown;
  audioMs: number;
  noteStatus: string | null;
  noteLocked: boolean | null;
}

type Ctx = { visit?: { chief_complaint?: unknown; visit_type?: unknown }; patient?: { name?: unknown; mrn?: unknown } } | null;
const str = (v: unknown) => (typeof v === 'string' ? v : null);

export function sessionListItem(r: SessionListRow): SessionListItem {
  const ctx = r.context as Ctx;
  const hasNote = r.noteStatus !== null;
  return {
    ambient_session_id: r.id,
    encounter_id: r.encounterId,
    status: r.status as SessionStatus,
    created_at: r.createdAt.toISOString(),
    chief_complaint: str(ctx?.visit?.chief_complaint),
    visit_type: str(ctx?.visit?.visit_type),
    audio_ms: Number(r.audioMs),
    patient_name: str(ctx?.patient?.name),
    mrn: str(ctx?.patient?.mrn),
    note_status: hasNote ? (r.noteStatus as NoteStatus) : null,
    needs_review: hasNote && r.status === 'completed' && !r.noteLocked,
  };
}
