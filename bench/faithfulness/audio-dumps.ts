/**
 * The notes bench:clinical wrote from natural-voice audio (`npm run bench:clinical -- --dump` writes
 * tmp/bench-clinical/<id>.out.json), read back for the faithfulness check: the recognised transcript entries
 * (the dump keeps speaker and text; ids are given here in order, a1, a2, …), the note from audio and its coded
 * data. The dumps keep no entry ids, so the entries the engine cited cannot be checked; the support and
 * evidence search apply.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NoteSection, StructuredData, TranscriptLine } from '../../server/engines/notes/types';

interface Dump {
  entries?: Array<{ speaker: string; transcript: string }>;
  audioNote?: string;
  audio?: StructuredData | { summary: NoteSection[]; structured_data: StructuredData };
}

export interface AudioVisit { id: string; transcript: TranscriptLine[]; note: { summary: NoteSection[]; structured_data?: StructuredData } }

/** "HEADING\n\nbody\n\nHEADING…" (noteToText) back into sections. */
function textToSections(text: string): NoteSection[] {
  const out: NoteSection[] = [];
  for (const block of text.split(/\n\n(?=[A-Z][A-Z &/,-]{2,}\n)/)) {
    const [title, ...rest] = block.split('\n');
    out.push({ title: title.trim(), loinc_code: '', content: rest.join('\n').trim(), source_transcripts: [] });
  }
  return out;
}

export function readAudioDumps(dir: string): AudioVisit[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.out.json'))
    .sort()
    .flatMap((f): AudioVisit[] => {
      const d = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Dump;
      if (!d.entries || !d.audio) return [];
      const transcript = d.entries.map((e, i): TranscriptLine => ({
        transcriptId: `a${i + 1}`,
        speaker: e.speaker === 'CLINICIAN' || e.speaker === 'PATIENT' ? e.speaker : 'UNKNOWN',
        text: e.transcript,
        startMs: 0,
        endMs: 0,
      }));
      // The issue-14 visit's dump holds the whole content (summary and coded data); the others the note's text.
      // Its cited entries are the session's entry ids, which the dump does not keep: they are dropped here.
      const note =
        'summary' in d.audio
          ? { ...d.audio, summary: d.audio.summary.map((s) => ({ ...s, sentences: s.sentences?.map((x) => ({ ...x, source_transcripts: [] })) })) }
          : { summary: textToSections(d.audioNote ?? ''), structured_data: d.audio };
      return [{ id: f.replace(/\.out\.json$/, ''), transcript, note }];
    });
}
