/**
 * npm run bench:clinical [-- --limit 2 --offset 0 | --ids D2N083,D2N085] [-- --speed 8 --voices <doctor>,<patient> --dump --e2e-visit --write]
 * (--dump writes each dialogue's transcript as the API gave it (ids, offsets, word confidences), both notes and both structured data to tmp/bench-clinical, for `bench:faithfulness -- --audio`; --e2e-visit also speaks the recorder tests' visit)
 * End to end: ACI-BENCH valid dialogues spoken by two synthetic voices (natural ones where the speech
 * synthesis helper has them), streamed through /ws/ambient of a real server this script starts, turned
 * into notes by the pipeline. The same dialogues' gold text goes through the same notes engine. Reported:
 * diagnosis (ICD-10-CM category) and medication (RxNorm ingredient, dose, frequency) precision and recall
 * of both notes against the scribe's reference note, the audio/text ratio of each, the audio note's facts
 * against the text note's, ROUGE of the audio note against the text note, and the transcript WER.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedNotesEngine, noteToText } from '../../server/engines/notes/embedded/index';
import { dialogueToTranscript } from '../../server/engines/notes/embedded/dialogue';
import type { NoteResult } from '../../server/engines/notes/types';
import { wordErrorRate } from '../../server/engines/speech/wer';
import { startServer } from '../../server/test/harness';
import { createTestPartner, registerAndLogin } from '../../server/test/partners';
import { rouge } from '../notes/rouge';
import { noteFacts, precision, recall, referenceFacts, tally, type NoteFacts, type Tally } from './facts';
import { runVisit } from './stream';
import { ISSUE_VISIT, issueVisitFacts } from './visit';
import { speakDialogue, voicesInUse } from './speak';
import { VISIT } from '../../e2e/visit-audio';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}
const LIMIT = Number(arg('limit', '2'));
const OFFSET = Number(arg('offset', '0'));
const SPEED = Number(arg('speed', '8'));
const root = path.resolve(import.meta.dirname, '../..');
const rows = readFileSync(path.resolve(root, '../shared/data/aci-bench/valid.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { encounter_id: string; dialogue: string; note: string; dataset: string });
const IDS = arg('ids', '');
// --ids picks dialogues by name (e.g. the shorter ones, when the machine is too loaded for the first two).
const used = IDS ? rows.filter((r) => IDS.split(',').includes(r.encounter_id)) : rows.slice(OFFSET, OFFSET + LIMIT);

type Kind = keyof NoteFacts;
const KINDS: Kind[] = ['dx', 'drugs', 'doses', 'frequencies'];
const LABEL: Record<Kind, string> = { dx: 'diagnoses (ICD-10-CM category)', drugs: 'medications (RxNorm ingredient)', doses: 'medication dose', frequencies: 'medication frequency' };
const blank = (): Record<Kind, Tally> => ({ dx: { tp: 0, predicted: 0, reference: 0 }, drugs: { tp: 0, predicted: 0, reference: 0 }, doses: { tp: 0, predicted: 0, reference: 0 }, frequencies: { tp: 0, predicted: 0, reference: 0 } });

async function main(): Promise<void> {
  const voices = await voicesInUse(arg('voices', ''));
  console.log(`machine: ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`dialogues: ${used.length} of ${rows.length} valid (${used.map((r) => r.encounter_id).join(', ')}); voices ${voices.doctor} (doctor), ${voices.patient} (patient)`);
  const audios = used.map((r) => speakDialogue(r.encounter_id, r.dialogue, voices));
  const engine = new EmbeddedNotesEngine();
  const server = await startServer({ env: { LOG_LEVEL: 'warn', WS_MAX_AHEAD_MS: '3600000' } });
  const vsRef = { audio: blank(), text: blank() };
  const agree = blank();
  const scores = { r1: 0, r2: 0, rl: 0 };
  let werErrors = 0;
  let werWords = 0;
  let audioMs = 0;
  let n = 0;
  let visitLine = '';
  try {
    const dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    // The issue's own visit first: the five facts it must yield, from audio and from its text.
    const issue = await runVisit(server.baseUrl, server.wsUrl, dr, speakDialogue('issue14', ISSUE_VISIT, voices).pcm, SPEED);
    const issueText = engine.generateSync({ transcript: dialogueToTranscript(ISSUE_VISIT), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
    const fromAudio = issue.content ? issueVisitFacts(issue.content) : [];
    visitLine = `issue 14 visit (${issue.status}): ${issueVisitFacts(issueText).map(([name, ok], k) => `${name} text ${ok ? 'yes' : 'no'} / audio ${fromAudio[k]?.[1] ? 'yes' : 'no'}`).join('; ')}`;
    console.log(`  ${visitLine}`);
    if (process.argv.includes('--dump')) writeFileSync(path.join(root, 'tmp/bench-clinical/issue14.out.json'), JSON.stringify({ entries: issue.entries, raw: issue.raw, audio: issue.content, textNote: noteToText(issueText) }, null, 1));
    // --e2e-visit: the recorder tests' short visit as well (dumped only): its greeting and "acute bronchitis" from audio.
    if (process.argv.includes('--e2e-visit')) {
      const dialogue = VISIT.map(([who, t]) => `[${who === 'C' ? 'doctor' : 'patient'}] ${t}`).join('\n');
      const e2e = await runVisit(server.baseUrl, server.wsUrl, dr, speakDialogue('e2e-visit', dialogue, voices).pcm, SPEED);
      const e2eText = engine.generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
      console.log(`  e2e visit: ${e2e.status}`);
      if (process.argv.includes('--dump')) writeFileSync(path.join(root, 'tmp/bench-clinical/e2e-visit.out.json'), JSON.stringify({ entries: e2e.entries, raw: e2e.raw, audio: e2e.content, textNote: noteToText(e2eText) }, null, 1));
    }
    for (const [i, row] of used.entries()) {
      const visit = await runVisit(server.baseUrl, server.wsUrl, dr, audios[i]!.pcm, SPEED);
      if (!visit.content) {
        console.log(`  ${row.encounter_id}: session ${visit.status}, left out`);
        continue;
      }
      const textNote: NoteResult = engine.generateSync({ transcript: dialogueToTranscript(row.dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
      if (process.argv.includes('--dump'))
        writeFileSync(path.join(root, 'tmp/bench-clinical', `${row.encounter_id}.out.json`), JSON.stringify({ entries: visit.entries, raw: visit.raw, audioNote: noteToText(visit.content), textNote: noteToText(textNote), audio: visit.content.structured_data, text: textNote.structured_data }, null, 1));
      const ref = referenceFacts(row.note);
      const a = noteFacts(visit.content);
      const t = noteFacts(textNote);
      for (const k of KINDS) {
        tally(a[k], ref[k], vsRef.audio[k]);
        tally(t[k], ref[k], vsRef.text[k]);
        tally(a[k], t[k], agree[k]);
      }
      const s = rouge(noteToText(textNote), noteToText(visit.content));
      scores.r1 += s.rouge1.f1;
      scores.r2 += s.rouge2.f1;
      scores.rl += s.rougeL.f1;
      const gold = row.dialogue.replace(/\[[a-z_]+\]/g, ' ');
      const w = wordErrorRate(gold, visit.transcript);
      werErrors += w.errors;
      werWords += w.refWords;
      audioMs += audios[i]!.ms;
      n++;
      console.log(`  ${row.encounter_id}: ${(audios[i]!.ms / 60_000).toFixed(1)} min audio, WER ${(w.wer * 100).toFixed(1)} %, ROUGE-1 audio vs text note ${(s.rouge1.f1 * 100).toFixed(1)}`);
    }
  } finally {
    await server.stop();
  }
  const pct = (x: number) => (x * 100).toFixed(1);
  const ratio = (x: number, y: number) => (y ? (x / y).toFixed(2) : 'n/a');
  const lines = [
    `ACI-BENCH valid, ${n} dialogues (${used.map((r) => r.encounter_id).join(', ')}), ${(audioMs / 60_000).toFixed(1)} min of audio, voices ${voices.doctor} / ${voices.patient}`,
    visitLine,
    `transcript WER ${pct(werErrors / Math.max(werWords, 1))} % (${werWords} gold words)`,
    `ROUGE of the note from audio against the note from text: ROUGE-1 ${pct(scores.r1 / Math.max(n, 1))}  ROUGE-2 ${pct(scores.r2 / Math.max(n, 1))}  ROUGE-L ${pct(scores.rl / Math.max(n, 1))}`,
    `against the reference note       audio P / R      text P / R      audio/text P / R`,
    ...KINDS.map((k) => {
      const au = vsRef.audio[k];
      const tx = vsRef.text[k];
      return `${LABEL[k].padEnd(33)}${pct(precision(au)).padStart(5)} / ${pct(recall(au)).padEnd(7)}${pct(precision(tx)).padStart(5)} / ${pct(recall(tx)).padEnd(7)}${ratio(precision(au), precision(tx)).padStart(6)} / ${ratio(recall(au), recall(tx))}`;
    }),
    `audio note against text note: ${KINDS.map((k) => `${k} P ${pct(precision(agree[k]))} R ${pct(recall(agree[k]))} (${agree[k].tp}/${agree[k].predicted}, ${agree[k].tp}/${agree[k].reference})`).join('; ')}`,
  ];
  console.log(lines.join('\n'));
  if (process.argv.includes('--write')) {
    const file = path.join(root, 'bench/clinical/RESULTS.md');
    const md = readFileSync(file, 'utf8');
    writeFileSync(file, md.replace(/<!-- results:start -->[\s\S]*<!-- results:end -->/, `<!-- results:start -->\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n<!-- results:end -->`));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
