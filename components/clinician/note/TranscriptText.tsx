import type { TranscriptEntry } from '@/lib/contracts/sessions';
import { transcriptParts } from './transcript-parts';

/**
 * An entry's words with the recogniser's uncertain ones marked: a dotted underline and a "low confidence"
 * title, so the clinician checks them against the audio before relying on them.
 */
export function TranscriptText({ entry }: { entry: Pick<TranscriptEntry, 'transcript' | 'words'> }) {
  return (
    <>
      {transcriptParts(entry).map((p, i) =>
        p.low ? (
          <span key={i} className="underline decoration-dotted decoration-amber-700 underline-offset-2" title="low confidence" data-low-confidence="true">
            {p.text}
          </span>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
