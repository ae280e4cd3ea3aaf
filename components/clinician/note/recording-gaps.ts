import type { RecordingGap, TranscriptEntry } from '@/lib/contracts/sessions';
import { durationMs } from '@/lib/transcript/duration';
import { gapCauseWords, gapHeading } from '@/lib/transcript/recording-gap-cause';

export type TranscriptItem = { kind: 'entry'; entry: TranscriptEntry } | { kind: 'gap'; gap: RecordingGap };

/**
 * The entries with each unrecorded stretch placed where it falls: before the first entry that starts at or
 * after it (the entries' offsets run on across it), or after the last entry.
 */
export function withRecordingGaps(entries: readonly TranscriptEntry[], gaps: readonly RecordingGap[]): TranscriptItem[] {
  const pending = [...gaps].sort((a, b) => durationMs(a.at_offset) - durationMs(b.at_offset));
  const out: TranscriptItem[] = [];
  for (const entry of entries) {
    while (pending.length > 0 && durationMs(pending[0]!.at_offset) <= durationMs(entry.start_offset)) out.push({ kind: 'gap', gap: pending.shift()! });
    out.push({ kind: 'entry', entry });
  }
  for (const gap of pending) out.push({ kind: 'gap', gap });
  return out;
}

/** "12 s", "2 min 5 s", "1 h 3 min": how long, to the second. */
export function gapLength(ms: number): string {
  const total = Math.max(1, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`;
  return `${s} s`;
}

/** Clock options: the page's own locale and time zone unless a test fixes them. */
export interface ClockOptions {
  locale?: string;
  timeZone?: string;
}

/** The time of day to the second (a gap is often seconds long, so minutes alone would show 10:42–10:42). */
function clock(iso: string, opts: ClockOptions): string {
  return new Date(iso).toLocaleTimeString(opts.locale ?? [], { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: opts.timeZone });
}

/**
 * What the divider says: how long, when, why when the recorder said so (a pause is the clinician's own, so it
 * heads the line), and that the transcript and the note hold nothing of it.
 */
export function gapText(gap: RecordingGap, opts: ClockOptions = {}): string {
  const when = `${gapHeading(gap.cause)}: ${gapLength(gap.duration_ms)} (${clock(gap.start_time, opts)}–${clock(gap.end_time, opts)})`;
  const why = gap.cause === 'PAUSED' ? null : gapCauseWords(gap.cause);
  return `${when}${why ? ` — ${why}` : ''}. Anything said then is not in this transcript or the note.`;
}

/**
 * What the audio player says of the part it plays: the first part is only numbered; a later part says what came
 * before it, the gap found where it starts on the transcript's timeline (within half a second) or, with none there,
 * a dropped connection whose resend went on with nothing missing. Without the parts' lengths yet, every cause is named.
 */
export function partLabel(index: number, count: number, durationsMs: readonly number[] | null, gaps: readonly RecordingGap[]): string {
  const head = `Part ${index + 1} of ${count}`;
  if (index === 0) return `${head}.`;
  // A length that could not be read (0) would place the part wrongly: then nothing is claimed about what came before.
  if (!durationsMs || durationsMs.length < index || durationsMs.slice(0, index).some((d) => !(d > 0) || !Number.isFinite(d))) return `${head} (the recording continued in a new part after a dropped connection, a pause, a reload or lost sound).`;
  const startsAt = durationsMs.slice(0, index).reduce((a, b) => a + b, 0);
  const gap = gaps.find((g) => Math.abs(durationMs(g.at_offset) - startsAt) <= 500);
  if (!gap) return `${head}: the connection dropped and recording went on in a new part; no audio is missing between the parts.`;
  if (gap.cause === 'PAUSED') return `${head}: recorded after a pause of ${gapLength(gap.duration_ms)}.`;
  const why = gapCauseWords(gap.cause);
  return `${head}: recorded after ${gapLength(gap.duration_ms)} that was not recorded${why ? ` (${why})` : ''}.`;
}
