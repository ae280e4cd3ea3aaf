/**
 * The notes engine as it is now, run again on what the recogniser heard in a `bench:clinical -- --dump` run (the
 * dump keeps the final transcript as the API gave it: ids, offsets and each word's confidence). Speaking and
 * recognising a dialogue takes many minutes on the shared 2-core machine; writing its note takes milliseconds,
 * so a change to the engine is measured on audio without speaking again (issue 27 item 5). Reported per visit:
 * the note from audio against the note the same engine writes from the gold text (ROUGE-1), `[unclear]`
 * markers reaching the note, sentences and spans left out as unsure, and the diagnoses of each.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEntry } from '../../lib/contracts/session-content';
import { dialogueToTranscript } from '../../server/engines/notes/embedded/dialogue';
import { EmbeddedNotesEngine, noteToText } from '../../server/engines/notes/embedded/index';
import type { NoteResult, TranscriptLine } from '../../server/engines/notes/types';
import { ISSUE_VISIT } from '../clinical/visit';
import { VISIT } from '../../e2e/visit-audio';
import { rouge } from '../notes/rouge';

const ms = (d: { hours: number; minutes: number; seconds: number; nanos: number }) => Math.round(((d.hours * 60 + d.minutes) * 60 + d.seconds) * 1000 + d.nanos / 1e6);

/** The transcript the pipeline handed the engine, from the API's entries. */
export function entriesToTranscript(raw: TranscriptEntry[]): TranscriptLine[] {
  return raw.map((e) => ({
    transcriptId: e.transcript_id,
    speaker: e.speaker === 'CLINICIAN' || e.speaker === 'PATIENT' ? e.speaker : 'UNKNOWN',
    text: e.transcript,
    startMs: ms(e.start_offset),
    endMs: ms(e.end_offset),
    ...(e.confidence !== undefined ? { confidence: e.confidence } : {}),
    ...(e.words ? { words: e.words.map((w) => ({ text: w.text, startMs: ms(w.start_offset), endMs: ms(w.end_offset), confidence: w.confidence })) } : {}),
  }));
}

export interface AudioRun { id: string; audio: NoteResult; text: NoteResult; transcript: TranscriptLine[] }

/** Each dump that kept its raw transcript, with the gold dialogue it was spoken from. */
export function rewriteAudioDumps(dir: string, root: string): AudioRun[] {
  if (!existsSync(dir)) return [];
  const valid = new Map(
    readFileSync(path.resolve(root, '../shared/data/aci-bench/valid.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { encounter_id: string; dialogue: string })
      .map((r) => [r.encounter_id, r.dialogue]),
  );
  valid.set('issue14', ISSUE_VISIT);
  valid.set('e2e-visit', VISIT.map(([who, t]) => `[${who === 'C' ? 'doctor' : 'patient'}] ${t}`).join('\n'));
  const engine = new EmbeddedNotesEngine();
  const write = (transcript: TranscriptLine[]) => engine.generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
  return readdirSync(dir)
    .filter((f) => f.endsWith('.out.json'))
    .sort()
    .flatMap((f): AudioRun[] => {
      const id = f.replace(/\.out\.json$/, '');
      const d = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { raw?: TranscriptEntry[] };
      const gold = valid.get(id);
      if (!d.raw?.length || !gold) return [];
      const transcript = entriesToTranscript(d.raw);
      return [{ id, transcript, audio: write(transcript), text: write(dialogueToTranscript(gold)) }];
    });
}

const UNCLEAR = /\[unclear\]|UNCLEARSPAN/gi;

export function audioRewriteLines(runs: AudioRun[]): string[] {
  const lines = [`notes written again by the engine as it is now from the recognised transcripts of ${runs.map((r) => r.id).join(', ')}:`];
  let r1 = 0;
  let unclear = 0;
  let sentences = 0;
  for (const r of runs) {
    const a = noteToText(r.audio);
    const score = rouge(noteToText(r.text), a).rouge1.f1;
    const marks = (a.match(UNCLEAR) ?? []).length;
    const n = r.audio.summary.reduce((k, s) => k + (s.sentences?.length ?? 0), 0);
    const left = r.audio.left_out ?? [];
    const dx = (x: NoteResult) => x.structured_data.diagnoses.values.map((d) => d.codes[0]?.code).join(',');
    lines.push(
      `  ${r.id}: ROUGE-1 audio vs text note ${(score * 100).toFixed(1)}; [unclear] in the note ${marks}; sentences ${n} (text note ${r.text.summary.reduce((k, s) => k + (s.sentences?.length ?? 0), 0)}); left out as unsure: ${left.filter((x) => x.kind === 'sentence').length} sentences, ${left.filter((x) => x.kind === 'span').length} spans; diagnoses audio ${dx(r.audio) || '-'} / text ${dx(r.text) || '-'}`,
    );
    r1 += score;
    unclear += marks;
    sentences += n;
  }
  lines.push(`  over ${runs.length} visits: ROUGE-1 audio vs text note ${((r1 / Math.max(runs.length, 1)) * 100).toFixed(1)}, [unclear] reaching notes ${unclear} (in ${sentences} sentences)`);
  return lines;
}
