import type { Composition } from '@medplum/fhirtypes';
import type { NoteStatus } from '@/lib/contracts/note-status';

/**
 * The note's sign-off state → Composition.status (and DocumentReference.docStatus): a signed note is
 * final, an amended one amended, anything else (a draft, or a service without sign-off) preliminary.
 */
export function mapCompositionStatus(noteStatus: NoteStatus | string | null | undefined): Composition['status'] {
  if (noteStatus === 'signed') return 'final';
  if (noteStatus === 'amended') return 'amended';
  return 'preliminary';
}
