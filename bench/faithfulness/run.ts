/**
 * npm run bench:faithfulness [-- --verbose] [--audio] [--engine openai --base-url <url> --model <name>]
 * Faithfulness of the notes engine (issue 27 item 1): the embedded engine writes a note from the gold
 * dialogue of each ACI-BENCH encounter (valid, and train's held-out fold, never tuned on; bench/notes/folds.ts),
 * then the issue's own visit written out as text, and the checker in server/engines/notes/faithfulness reads
 * every note sentence and the coded data back against the transcript. Printed per set: notes, sentences, unsupported facts (in the text and in the coded
 * data, total and per note, by kind and reason), sentences with no evidence (% of non-template sentences),
 * template sentences, sentences pasted from speech, and the worst examples.
 * --audio adds the notes bench:clinical wrote from natural-voice audio, read from its dumps
 * (run `npm run bench:clinical -- --dump` first; this bench does not speak or recognise audio itself), and the same
 * recognised transcripts written again by the engine as it is now (ROUGE-1 against the text note, [unclear] count).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EmbeddedNotesEngine } from '../../server/engines/notes/embedded/index';
import { dialogueToTranscript } from '../../server/engines/notes/embedded/dialogue';
import { checkNoteFaithfulness } from '../../server/engines/notes/faithfulness/index';
import { isHeldOut } from '../notes/folds';
import { readAudioDumps } from './audio-dumps';
import { audioRewriteLines, rewriteAudioDumps } from './audio-rewrite';
import { ISSUE27_VISIT } from './issue27-visit';
import { mutationCatchRate } from './mutations';
import { summarise, type NoteCheck } from './summarise';

const root = path.resolve(import.meta.dirname, '../..');
const verbose = process.argv.includes('--verbose');
type Row = { encounter_id: string; dialogue: string; note: string; dataset: string };
const read = (split: string): Row[] | undefined => {
  const file = path.resolve(root, '../shared/data/aci-bench', `${split}.jsonl`);
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row);
};
const valid = read('valid');
const train = read('train');
if (!valid || !train) {
  console.log('skipped: ../shared/data/aci-bench/{valid,train}.jsonl not found');
  process.exit(0);
}
const sets: Array<[string, Row[]]> = [
  ['ACI-BENCH valid', valid],
  ['ACI-BENCH train, held-out fold', train.filter((_r, i) => isHeldOut(i))],
  // Not a benchmark set: the issue's own visit, so its failures can be watched one by one.
  ['issue 27 visit (as text)', [{ encounter_id: 'issue27', dialogue: ISSUE27_VISIT, note: '', dataset: 'issue' }]],
];
// --engine openai --base-url <url>: the same sets through a language model and the guard (issue 32).
if (process.argv.includes('--engine') && process.argv[process.argv.indexOf('--engine') + 1] === 'openai') {
  const { runOpenAIFaithfulness } = await import('../openai-notes/faithfulness');
  process.exit(await runOpenAIFaithfulness(sets, { verbose }));
}
const engine = new EmbeddedNotesEngine();
for (const [name, rows] of sets) {
  let checkMs = 0;
  const notes = rows.map((row) => {
    const transcript = dialogueToTranscript(row.dialogue);
    return { id: row.encounter_id, transcript, result: engine.generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } }) };
  });
  const checks: NoteCheck[] = notes.map(({ id, result, transcript }) => {
    const t0 = performance.now();
    const report = checkNoteFaithfulness(result, transcript);
    checkMs += performance.now() - t0;
    return { id, report };
  });
  console.log(summarise(name, checks, { verbose }).join('\n'));
  const caught = [...mutationCatchRate(notes)];
  const all = caught.reduce((a, [, v]) => ({ tried: a.tried + v.tried, caught: a.caught + v.caught }), { tried: 0, caught: 0 });
  console.log(`checker self-test, one invented fact per note at a time: caught ${all.caught}/${all.tried} (${caught.map(([k, v]) => `${k} ${v.caught}/${v.tried}`).join(', ')})`);
  console.log(`checker speed: ${(checkMs / rows.length).toFixed(1)} ms per note (the engine's own note takes ~35 ms)\n`);
}

if (process.argv.includes('--audio')) {
  const dir = path.join(root, 'tmp/bench-clinical');
  const visits = readAudioDumps(dir);
  if (!visits.length) console.log(`--audio: no dumps in ${dir}; run \`npm run bench:clinical -- --dump\` first`);
  else {
    const checks = visits.map((v) => ({ id: v.id, report: checkNoteFaithfulness(v.note, v.transcript) }));
    console.log(summarise(`bench:clinical audio notes as the server wrote them (${visits.map((v) => v.id).join(', ')})`, checks, { verbose }).join('\n'));
    // The same recognised transcripts, written again by the engine as it is now (dumps that kept the raw transcript).
    const runs = rewriteAudioDumps(dir, root);
    if (runs.length) {
      console.log(`\n${audioRewriteLines(runs).join('\n')}`);
      const again = runs.map((r) => ({ id: r.id, report: checkNoteFaithfulness(r.audio, r.transcript) }));
      console.log(summarise(`the same audio notes written again now (${runs.map((r) => r.id).join(', ')})`, again, { verbose }).join('\n'));
    }
  }
}
