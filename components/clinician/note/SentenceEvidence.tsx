'use client';
import { useId, useState } from 'react';
import { Button } from '@/components/ui';
import { formatDuration } from '../format';
import type { EvidenceSentence } from './evidence';

const range = (s: EvidenceSentence) => (s.evidence ? `${formatDuration(s.evidence.start_ms)}–${formatDuration(Math.max(s.evidence.end_ms, s.evidence.start_ms + 1000))}` : '');

/**
 * A section's generated sentences as buttons: choosing one highlights the transcript lines it came from
 * (pressed again, it lets go) and offers to play that stretch of the recording. Template wording and
 * sentences no line supports say so in their names.
 */
export function SentenceEvidence({
  sentences,
  selected,
  onSelect,
  onPlay,
}: {
  sentences: EvidenceSentence[];
  selected: string | null;
  onSelect: (key: string | null) => void;
  onPlay: (s: EvidenceSentence) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  if (sentences.length === 0) {
    return <p className="mt-2 text-xs text-slate-700">This text does not link to the transcript: the section was edited since the note was generated, or the note engine did not say where each sentence came from.</p>;
  }
  return (
    <div className="mt-2 border-t border-slate-100 pt-2">
      <Button size="sm" variant="ghost" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? 'Hide evidence' : `Show evidence (${sentences.length} sentence${sentences.length === 1 ? '' : 's'})`}
      </Button>
      {open ? (
        <ol id={id} className="mt-1 flex flex-col gap-1 text-sm" data-testid="sentence-evidence" aria-label="Sentences and their evidence">
          {sentences.map((s) => {
            const on = selected === s.key;
            return (
              <li key={s.key} className="flex flex-wrap items-start gap-2" data-selected={on || undefined}>
                <button
                  type="button"
                  aria-pressed={on}
                  onClick={() => onSelect(on ? null : s.key)}
                  className={`flex-1 rounded px-1 py-0.5 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 ${on ? 'bg-amber-100 ring-1 ring-amber-400' : ''}`}
                >
                  {s.text}
                  {s.template ? <span className="ml-2 rounded bg-slate-100 px-1 text-xs text-slate-800">template text</span> : null}
                  {!s.evidence && !s.template ? <span className="ml-2 rounded bg-amber-50 px-1 text-xs text-amber-900">no evidence</span> : null}
                  {s.evidence ? (
                    <span className="ml-2 font-mono text-xs text-slate-700">
                      {range(s)}, {s.evidence.transcript_ids.length} line{s.evidence.transcript_ids.length === 1 ? '' : 's'}
                    </span>
                  ) : null}
                </button>
                {on && s.evidence ? (
                  <Button size="sm" variant="secondary" onClick={() => onPlay(s)}>
                    Play evidence {range(s)}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </div>
  );
}
