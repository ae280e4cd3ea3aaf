import type { NoteStatus } from '@/lib/contracts/fhir';

/**
 * The note's sign-off state from a session_content row. Sign-off (note_status, signed_at) is added to
 * that row by the workflow work; until a row carries it, every note is a draft. Read by name so the
 * export follows the columns as soon as they exist.
 */
export function readNoteStatus(row: Record<string, unknown> | undefined): { status: NoteStatus; signedAt: Date | null } {
  const raw = row?.noteStatus ?? row?.note_status;
  const status: NoteStatus = raw === 'signed' || raw === 'amended' ? raw : 'draft';
  const at = row?.signedAt ?? row?.signed_at;
  const signedAt = at instanceof Date ? at : typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? new Date(at) : null;
  return { status, signedAt };
}
