import type { NoteStatus } from '@/lib/contracts/note-status';

/**
 * The note's sign-off state from its session_content row (note_status, signed_at: the sign-off work of
 * issue 17). The one place the export reads it; a row without content is a draft.
 */
export function readNoteStatus(row: { noteStatus?: string | null; signedAt?: Date | null } | undefined): { status: NoteStatus; signedAt: Date | null } {
  const raw = row?.noteStatus;
  const status: NoteStatus = raw === 'signed' || raw === 'amended' ? raw : 'draft';
  return { status, signedAt: row?.signedAt ?? null };
}
