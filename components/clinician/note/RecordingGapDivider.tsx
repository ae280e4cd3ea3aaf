import type { RecordingGap } from '@/lib/contracts/sessions';
import { gapText, type ClockOptions } from './recording-gaps';

/**
 * A stretch of the visit no recording holds, as a line of the transcript list. Plain text between two rules
 * (no background, which print drops), wrapping at any width.
 */
export function RecordingGapDivider({ gap, clock }: { gap: RecordingGap; clock?: ClockOptions }) {
  return (
    <li data-testid="recording-gap" className="my-1 border-y-2 border-dashed border-slate-600 px-1 py-1 text-sm font-medium text-slate-900">
      {gapText(gap, clock)}
    </li>
  );
}
