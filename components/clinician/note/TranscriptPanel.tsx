'use client';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Duration, RecordingListResponse, TranscriptEntry } from '@/lib/contracts/sessions';
import { formatDuration } from '../format';
import { TranscriptText } from './TranscriptText';
import { uncertainWords } from './transcript-parts';

const ms = (d: Duration) => d.hours * 3_600_000 + d.minutes * 60_000 + d.seconds * 1000 + Math.floor(d.nanos / 1e6);

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
    Promise.all(
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

export function TranscriptPanel({ entries, recordings }: { entries: TranscriptEntry[]; recordings: RecordingListResponse['recordings'] }) {
  const audio = useRef<HTMLAudioElement>(null);
  const sorted = useMemo(() => [...recordings].sort((a, b) => a.sequence_number - b.sequence_number), [recordings]);
  const durations = useDurations(sorted.map((r) => r.presigned_url));
  const [current, setCurrent] = useState(0);
  const [activeLine, setActiveLine] = useState<string | null>(null);

  function locate(offsetMs: number): { index: number; at: number } {
    if (!durations) return { index: 0, at: offsetMs };
    let start = 0;
    for (let i = 0; i < durations.length; i++) {
      if (offsetMs < start + durations[i]! || i === durations.length - 1) return { index: i, at: offsetMs - start };
      start += durations[i]!;
    }
    return { index: 0, at: offsetMs };
  }

  function seek(e: TranscriptEntry) {
    const el = audio.current;
    if (!el || sorted.length === 0) return;
    const { index, at } = locate(ms(e.start_offset));
    setActiveLine(e.transcript_id);
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

  return (
    <section aria-labelledby="tr-title" className="rounded-lg border border-slate-200 bg-white p-3">
      <h2 id="tr-title" className="text-lg font-semibold">
        Transcript and audio
      </h2>
      {sorted.length > 0 ? (
        <div className="mt-2">
          <audio ref={audio} controls preload="metadata" src={sorted[current]?.presigned_url} className="w-full" data-testid="audio-player" aria-label="Visit recording">
            <track kind="captions" />
          </audio>
          {sorted.length > 1 ? (
            <p className="mt-1 text-xs text-slate-700">
              Part {current + 1} of {sorted.length} (the connection dropped and recording continued in a new part).
            </p>
          ) : null}
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-700">No audio is stored for this visit.</p>
      )}
      {entries.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">The transcript is empty.</p>
      ) : (
        <ol className="mt-2 flex max-h-[32rem] flex-col gap-1 overflow-y-auto text-sm" data-testid="transcript" tabIndex={0} aria-label="Transcript lines">
          {entries.map((e) => (
            <li key={e.transcript_id}>
              <button
                type="button"
                onClick={() => seek(e)}
                aria-current={activeLine === e.transcript_id ? 'true' : undefined}
                className={`w-full rounded px-1 py-0.5 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 ${activeLine === e.transcript_id ? 'bg-blue-50' : ''}`}
                aria-label={`Play from ${formatDuration(ms(e.start_offset))}: ${e.speaker === 'UNKNOWN' ? '' : e.speaker.toLowerCase() + ', '}${e.transcript}${lowNote(e)}`}
              >
                <span className="mr-2 font-mono text-xs text-slate-600">{formatDuration(ms(e.start_offset))}</span>
                {e.speaker !== 'UNKNOWN' ? <span className="mr-1 font-medium">{e.speaker === 'CLINICIAN' ? 'Clinician:' : 'Patient:'}</span> : null}
                <TranscriptText entry={e} />
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
