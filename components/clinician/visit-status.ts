import { statusTone, type BadgeTone } from '@/components/ui/Badge';
import type { NoteSignoffState } from '@/lib/contracts/note-signoff';
import type { RecorderPhase } from '@/lib/stores/recorder';
import { STATUS_LABEL } from './format';

export interface StatusBadge {
  label: string;
  tone: BadgeTone;
}

export type SignoffFacts = Pick<NoteSignoffState, 'locked' | 'note_status'>;

/** The note's sign-off state in words: the sign-off bar's badge, and the visit header's once the note is signed. */
export function signoffBadge(signoff: SignoffFacts | undefined): StatusBadge | null {
  if (!signoff) return null;
  if (signoff.locked) return { label: signoff.note_status === 'amended' ? 'Amended and signed' : 'Signed', tone: 'success' };
  if (signoff.note_status === 'amended') return { label: 'Amending', tone: 'warning' };
  return { label: 'Draft', tone: 'warning' };
}

/**
 * The visit header's one status word (issue 29 item 7), from what is true now rather than the session's status
 * alone: while audio may still be captured, this page's recorder says whether anything is being recorded (after a
 * reload the session is still `ready` but the microphone is off until "Continue recording"); once the note is
 * written, its sign-off says whether it is signed or being amended, in the sign-off bar's own words.
 *
 * `recorder` is this page's recorder phase for this visit ('idle' when it holds another visit or none).
 * `signoffLoading`: the sign-off state has not arrived yet, so the badge cannot yet say whether the note is signed
 * (saying "Note ready" meanwhile told a clinician opening a signed visit that it was unsigned).
 */
export function visitBadge({
  status,
  capturing,
  recorder,
  signoff,
  signoffLoading = false,
}: {
  status: string;
  capturing: boolean;
  recorder: RecorderPhase;
  signoff: SignoffFacts | undefined;
  signoffLoading?: boolean;
}): StatusBadge {
  if (capturing) {
    switch (recorder) {
      case 'recording':
        return { label: 'Recording', tone: 'info' };
      case 'paused':
        return { label: 'Paused — not recording', tone: 'warning' };
      case 'starting':
        return { label: 'Starting the recording', tone: 'info' };
      case 'finishing':
        return { label: 'Ending the visit', tone: 'info' };
      case 'cancelled':
        return { label: 'Cancelled', tone: 'warning' };
      default:
        // idle, error, or finished with audio still to send: nothing is being recorded on this page.
        return status === 'created' ? { label: STATUS_LABEL.created, tone: 'neutral' } : { label: 'Recording stopped', tone: 'warning' };
    }
  }
  // The audio has ended (the recorder knows before the status does): the note is being written.
  if (status === 'created' || status === 'ready') return { label: STATUS_LABEL.running, tone: statusTone('running') };
  if (status === 'completed') {
    if (!signoff && signoffLoading) return { label: 'Checking sign-off…', tone: 'neutral' };
    const signed = signoffBadge(signoff);
    if (signed && signoff && (signoff.locked || signoff.note_status === 'amended')) return signed;
    return { label: STATUS_LABEL.completed, tone: statusTone('completed') };
  }
  return { label: STATUS_LABEL[status] ?? status, tone: statusTone(status) };
}
