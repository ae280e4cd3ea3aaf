'use client';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RecordingGap, RecordingListResponse, TranscriptEntry } from '@/lib/contracts/sessions';
import { formatDuration } from '../format';
import { durationMs } from '@/lib/transcript/duration';
import { Button } from '@/components/ui';
import { TranscriptText } from './TranscriptText';
import { uncertainWords } from './transcript-parts';
import { sentencesUsing, type EvidenceSentence } from './evidence';
import { partLabel, withRecordingGaps } from './recording-gaps';
import { RecordingGapDivider } from './RecordingGapDivider';

/**
 * Transcript offsets are on the session's timeline, which runs through the recordings in order (one per
 * connection). Each recording's length comes from its audio metadata, so a line maps to a recording and
 * a position inside it.
 */
function useDurations(urls: string[]): number[] | null {
  const [d, setD] = useState<number[] | null>(null);
  const key = urls.join('|');
  useEffect(() => {
    if (urls.length <= 1) {
      setD(urls.map(() => Number.POSITIVE_INFINITY));
      return;
    }
    let live = true;
    // Each promise resolves (0 on an error), so there is no rejection to handle.
    void Promise.all(
      urls.map(
        (u) =>
          new Promise<number>((resolve) => {
            const a = new Audio();
            a.preload = 'metadata';
            a.onloadedmetadata = () => resolve(Number.isFinite(a.duration) ? a.duration * 1000 : 0);
            a.onerror = () => resolve(0);
            a.src = u;
          }),
      ),
    ).then((v) => live && setD(v));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return d;
}

/** The button's label replaces its content for screen readers, so the uncertain words are named in it. */
function lowNote(e: TranscriptEntry): string {
  const low = uncertainWords(e);
  return low.length ? ` (low confidence: ${low.join(', ')})` : '';
}

/** A request to play a stretch of the session's audio; `n` changes for each request, so the same stretch plays again. */
export interface PlayRequest {
  startMs: number;
  endMs: number;
  n: number;
}

/**
 * The transcript with the visit's audio. Choosing a line plays from it and lists the note sentences that
 * used it; a sentence chosen in the note highlights its lines here, and its evidence can be played from
 * its first line to the end of its last. A stretch of the visit no recording holds is a line of its own, where
 * it falls: the offsets run on across it, so nothing else would show it.
 */
export function TranscriptPanel({
  entries,
  gaps = [],
  recordings,
  sentences = [],
  selected = null,
  onSelectSentence,
  play = null,
}: {
  entries: TranscriptEntry[];
  gaps?: RecordingGap[];
  recordings: RecordingListResponse['recordings'];
  sentences?: EvidenceSentence[];
  selected?: EvidenceSentence | null;
  onSelectSentence?: (key: string | null) => void;
  play?: PlayRequest | null;
}) {
  const audio = useRef<HTMLAudioElement>(null);
  const sorted = useMemo(() => [...recordings].sort((a, b) => a.sequence_number - b.sequence_number), [recordings]);
  const durations = useDurations(sorted.map((r) => r.presigned_url));
  const [current, setCurrent] = useState(0);
  const [activeLine, setActiveLine] = useState<string | null>(null);
  // Where playback of an evidence stretch stops, in seconds of the current recording.
  const stopAt = useRef<number | null>(null);
  const evidenceIds = useMemo(() => new Set(selected?.evidence?.transcript_ids ?? []), [selected]);
  const items = useMemo(() => withRecordingGaps(entries, gaps), [entries, gaps]);

  function locate(offsetMs: number): { index: number; at: number } {
    if (!durations) return { index: 0, at: offsetMs };
    let start = 0;
    for (let i = 0; i < durations.length; i++) {
      if (offsetMs < start + durations[i]! || i === durations.length - 1) return { index: i, at: offsetMs - start };
      start += durations[i]!;
    }
    return { index: 0, at: offsetMs };
  }

  function playFrom(offsetMs: number, untilMs: number | null) {
    const el = audio.current;
    if (!el || sorted.length === 0) return;
    const { index, at } = locate(offsetMs);
    stopAt.current = untilMs === null ? null : (at + (untilMs - offsetMs)) / 1000;
    const go = () => {
      el.currentTime = Math.max(0, at / 1000);
      void el.play().catch(() => undefined);
    };
    if (index !== current) {
      setCurrent(index);
      el.src = sorted[index]!.presigned_url;
      el.addEventListener('loadedmetadata', go, { once: true });
    } else if (el.readyState >= 1) go();
    else el.addEventListener('loadedmetadata', go, { once: true });
  }

  function seek(e: TranscriptEntry) {
    setActiveLine(e.transcript_id);
    playFrom(durationMs(e.start_offset), null);
  }

  useEffect(() => {
    if (play) playFrom(play.startMs, Math.max(play.endMs, play.startMs + 1000));
    // Only a new request plays; the function changes every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [play?.n]);

  // The chosen sentence's first line comes into view in the transcript's own scroll area.
  useEffect(() => {
    const first = selected?.evidence?.transcript_ids[0];
    if (first) document.getElementById(`line-${first}`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const usedBy = activeLine ? sentencesUsing(sentences, activeLine) : [];

  return (
    <section aria-labelledby="tr-title" className="rounded-lg border border-slate-200 bg-white p-3">
      <h2 id="tr-title" className="text-lg font-semibold">
        Transcript and audio
      </h2>
      {sorted.length > 0 ? (
        <div className="mt-2">
          <audio
            ref={audio}
            controls
            preload="metadata"
            src={sorted[current]?.presigned_url}
            className="w-full"
            data-testid="audio-player"
            aria-label="Visit recording"
            onTimeUpdate={(ev) => {
              const el = ev.currentTarget;
              if (stopAt.current !== null && el.currentTime >= stopAt.current) {
                stopAt.current = null;
                el.pause();
              }
            }}
          >
            <track kind="captions" />
          </audio>
          {sorted.length > 1 ? (
            <p className="mt-1 text-xs text-slate-700">
              {partLabel(current, sorted.length, durations, gaps)}
            </p>
          ) : null}
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-700">No audio is stored for this visit.</p>
      )}
      <EvidenceBar selected={selected} onPlay={(s) => s.evidence && playFrom(s.evidence.start_ms, Math.max(s.evidence.end_ms, s.evidence.start_ms + 1000))} onClear={() => onSelectSentence?.(null)} />
      {entries.length === 0 ? <p className="mt-2 text-sm text-slate-700">The transcript is empty.</p> : null}
      {items.length > 0 ? (
        <ol className="mt-2 flex max-h-[32rem] flex-col gap-1 overflow-y-auto text-sm print:max-h-none print:overflow-visible" data-testid="transcript" tabIndex={0} aria-label="Transcript lines">
          {items.map((item) => {
            if (item.kind === 'gap') return <RecordingGapDivider key={`gap-${item.gap.start_time}`} gap={item.gap} />;
            const e = item.entry;
            return (
              <li key={e.transcript_id} id={`line-${e.transcript_id}`} data-evidence={evidenceIds.has(e.transcript_id) || undefined}>
                <button
                  type="button"
                  onClick={() => seek(e)}
                  aria-current={activeLine === e.transcript_id ? 'true' : undefined}
                  className={`w-full rounded px-1 py-0.5 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 ${evidenceIds.has(e.transcript_id) ? 'bg-amber-100 ring-1 ring-amber-400' : activeLine === e.transcript_id ? 'bg-blue-50' : ''}`}
                  aria-label={`Play from ${formatDuration(durationMs(e.start_offset))}: ${e.speaker === 'UNKNOWN' ? '' : e.speaker.toLowerCase() + ', '}${e.transcript}${lowNote(e)}${evidenceIds.has(e.transcript_id) ? ' (evidence for the chosen sentence)' : ''}`}
                >
                  <span className="mr-2 font-mono text-xs text-slate-600">{formatDuration(durationMs(e.start_offset))}</span>
                  {e.speaker !== 'UNKNOWN' ? <span className="mr-1 font-medium">{e.speaker === 'CLINICIAN' ? 'Clinician:' : 'Patient:'}</span> : null}
                  <TranscriptText entry={e} />
                </button>
                {activeLine === e.transcript_id && sentences.length > 0 ? <UsedBy sentences={usedBy} onSelect={(k) => onSelectSentence?.(k)} /> : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </section>
  );
}

/** What the chosen sentence rests on, announced as it changes, with its audio one button away. */
function EvidenceBar({ selected, onPlay, onClear }: { selected: EvidenceSentence | null; onPlay: (s: EvidenceSentence) => void; onClear: () => void }) {
  return (
    <div role="status" className="mt-2 text-sm" data-testid="evidence-bar">
      {selected ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md bg-amber-50 p-2">
          <span className="flex-1">
            {selected.evidence
              ? `“${selected.text}” comes from ${selected.evidence.transcript_ids.length} highlighted line${selected.evidence.transcript_ids.length === 1 ? '' : 's'}, ${formatDuration(selected.evidence.start_ms)} to ${formatDuration(selected.evidence.end_ms)}.`
              : `“${selected.text}” has no transcript line behind it${selected.template ? ': it is template text' : ''}.`}
          </span>
          {selected.evidence ? (
            <Button size="sm" variant="secondary" onClick={() => onPlay(selected)}>
              Play this evidence
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The note sentences written from a transcript line; each one can be chosen from here. */
function UsedBy({ sentences, onSelect }: { sentences: EvidenceSentence[]; onSelect: (key: string) => void }) {
  if (sentences.length === 0) return <p className="ml-6 mt-1 text-xs text-slate-700" data-testid="used-by">No note sentence uses this line.</p>;
  return (
    <div className="ml-6 mt-1 text-xs" data-testid="used-by">
      <p className="text-slate-700">Used in the note by:</p>
      <ul className="flex flex-col gap-0.5">
        {sentences.map((s) => (
          <li key={s.key}>
            <button type="button" onClick={() => onSelect(s.key)} className="rounded px-1 text-left text-blue-800 underline hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700">
              {s.section}: {s.text}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
