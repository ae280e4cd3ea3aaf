import type { PartStartReason } from '@/lib/contracts/stream-protocol';

/**
 * Why a stretch of the visit was not recorded, in the clinician's words, for the transcript's divider and the
 * review before signing (recording_gaps[].cause). A pause is the clinician's own and is named as one; the
 * others say what stopped the recording. Null when the recorder gave no cause: the reader is then told every
 * possible one.
 */
export function gapCauseWords(cause: PartStartReason | null | undefined): string | null {
  switch (cause) {
    case 'PAUSED':
      return 'recording was paused';
    case 'PAGE_RELOADED':
      return 'the page was reloaded before recording continued';
    case 'CAPTURE_STALLED':
      return 'the microphone delivered no sound (the computer was too busy to capture it)';
    case 'MICROPHONE_DISCONNECTED':
      return 'the microphone was disconnected until recording was started again';
    default:
      return null;
  }
}

/** The heading of a gap: a pause is the clinician's own ("Recording paused"), anything else "Not recorded". */
export const gapHeading = (cause: PartStartReason | null | undefined): string => (cause === 'PAUSED' ? 'Recording paused' : 'Not recorded');
