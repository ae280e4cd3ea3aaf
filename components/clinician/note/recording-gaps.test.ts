import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RecordingGap, TranscriptEntry } from '@/lib/contracts/sessions';
import { gapLength, gapText, partLabel, withRecordingGaps } from './recording-gaps';
import { RecordingGapDivider } from './RecordingGapDivider';

const d = (ms: number) => ({ hours: 0, minutes: Math.floor(ms / 60_000), seconds: Math.floor((ms % 60_000) / 1000), nanos: (ms % 1000) * 1e6 });
const entry = (id: string, startMs: number) => ({ transcript_id: id, start_offset: d(startMs), end_offset: d(startMs + 900) }) as TranscriptEntry;
const GAP: RecordingGap = { at_offset: d(8_000), start_time: '2026-02-01T10:42:05.400000000Z', end_time: '2026-02-01T10:42:17.400000000Z', duration_ms: 12_000, cause: null };
const UTC = { locale: 'en-GB', timeZone: 'UTC' };

describe('recording gaps in the transcript view', () => {
  it('places a gap before the first entry at or after its offset, and one past the last entry at the end', () => {
    const late = { ...GAP, at_offset: d(30_000) };
    const items = withRecordingGaps([entry('a', 0), entry('b', 6_000), entry('c', 8_000), entry('d', 12_000)], [late, GAP]);
    expect(items.map((i) => (i.kind === 'gap' ? `gap@${i.gap.at_offset.seconds}` : i.entry.transcript_id))).toEqual(['a', 'b', 'gap@8', 'c', 'd', 'gap@30']);
  });

  it('leaves the entries as they are without gaps, and shows gaps alone when there are no entries', () => {
    expect(withRecordingGaps([entry('a', 0)], []).map((i) => i.kind)).toEqual(['entry']);
    expect(withRecordingGaps([], [GAP]).map((i) => i.kind)).toEqual(['gap']);
  });

  it('says how long in seconds, minutes and hours', () => {
    expect(gapLength(1_000)).toBe('1 s');
    expect(gapLength(12_400)).toBe('12 s');
    expect(gapLength(125_000)).toBe('2 min 5 s');
    expect(gapLength(120_000)).toBe('2 min');
    expect(gapLength(3_780_000)).toBe('1 h 3 min');
  });

  it('names the length, the times of day to the second, and what is missing because of it', () => {
    expect(gapText(GAP, UTC)).toBe('Not recorded: 12 s (10:42:05–10:42:17). Anything said then is not in this transcript or the note.');
  });

  it("names why when the recorder said so: a pause as the clinician's own, the others as what stopped the recording", () => {
    const paused = { ...GAP, duration_ms: 45_000, end_time: '2026-02-01T10:42:50.400000000Z', cause: 'PAUSED' as const };
    expect(gapText(paused, UTC)).toBe('Recording paused: 45 s (10:42:05–10:42:50). Anything said then is not in this transcript or the note.');
    expect(gapText({ ...GAP, cause: 'PAGE_RELOADED' }, UTC)).toBe(
      'Not recorded: 12 s (10:42:05–10:42:17) — the page was reloaded before recording continued. Anything said then is not in this transcript or the note.',
    );
    expect(gapText({ ...GAP, cause: 'CAPTURE_STALLED' }, UTC)).toMatch(/^Not recorded: 12 s \(10:42:05–10:42:17\) — the microphone delivered no sound \(the computer was too busy to capture it\)\. Anything said then/);
    expect(gapText({ ...GAP, cause: 'MICROPHONE_DISCONNECTED' }, UTC)).toContain('— the microphone was disconnected until recording was started again.');
    const html = renderToStaticMarkup(createElement(RecordingGapDivider, { gap: paused, clock: UTC }));
    expect(html).toMatch(/^<li data-testid="recording-gap"[^>]*>Recording paused: 45 s \(10:42:05–10:42:50\)\. Anything said then is not in this transcript or the note\.<\/li>$/);
  });

  it('renders as a list item of plain text with its test id', () => {
    const html = renderToStaticMarkup(createElement(RecordingGapDivider, { gap: GAP, clock: UTC }));
    expect(html).toMatch(/^<li data-testid="recording-gap"[^>]*>Not recorded: 12 s \(10:42:05–10:42:17\)\. Anything said then is not in this transcript or the note\.<\/li>$/);
  });
});

describe("the audio player's part label", () => {
  it('says what came before a later part: a gap with its cause, a pause, or a resend with nothing missing', () => {
    expect(partLabel(0, 2, [8_000, 5_000], [GAP])).toBe('Part 1 of 2.');
    expect(partLabel(1, 2, [8_000, 5_000], [{ ...GAP, cause: 'PAGE_RELOADED' }])).toBe('Part 2 of 2: recorded after 12 s that was not recorded (the page was reloaded before recording continued).');
    expect(partLabel(1, 2, [8_000, 5_000], [{ ...GAP, cause: 'PAUSED' }])).toBe('Part 2 of 2: recorded after a pause of 12 s.');
    expect(partLabel(1, 2, [8_000, 5_000], [GAP])).toBe('Part 2 of 2: recorded after 12 s that was not recorded.');
    expect(partLabel(1, 2, [21_500, 41_000], [])).toBe('Part 2 of 2: the connection dropped and recording went on in a new part; no audio is missing between the parts.');
  });

  it('claims nothing about what came before while a part length is unknown or unreadable', () => {
    expect(partLabel(1, 2, null, [])).toMatch(/^Part 2 of 2 \(the recording continued in a new part after a dropped connection, a pause, a reload or lost sound\)\.$/);
    expect(partLabel(1, 2, [0, 5_000], [])).toMatch(/^Part 2 of 2 \(/);
  });
});
