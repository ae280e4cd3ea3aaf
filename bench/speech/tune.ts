/**
 * Decoder settings sweep for the clinical model on synthesised TRAIN dialogues only (the valid split is
 * reserved for measuring). Usage: node --import tsx bench/speech/tune.ts [encounters] [turns]
 */
import os from 'node:os';
import { EmbeddedSpeechEngine, clinicalModel } from '../../server/engines/speech/embedded.js';
import { wordErrorRate } from '../../server/engines/speech/wer.js';
import { clinicRecordings } from './corpus.js';

const n = Number(process.argv[2] ?? 4);
const turns = Number(process.argv[3] ?? 16);
const recs = clinicRecordings('train', n, turns, 10);
if (!recs.length) throw new Error('ACI-BENCH train split not found');
const base = clinicalModel();
if (!base) throw new Error('run npm run speech:build-lm first');
const grid = (process.env.TUNE_GRID ? JSON.parse(process.env.TUNE_GRID) : [
  { '-lw': '4', '-wip': '0.65' },
  { '-lw': '5', '-wip': '0.65' },
  { '-lw': '6.5', '-wip': '0.65' },
  { '-lw': '8', '-wip': '0.5' },
  { '-lw': '10', '-wip': '0.2' },
]) as Record<string, string>[];
for (const args of grid) {
  const engine = new EmbeddedSpeechEngine({ model: { ...base, args }, poolSize: os.availableParallelism() });
  const results = await Promise.all(recs.map(async (r) => wordErrorRate(r.reference, (await engine.transcribe(r.pcm)).map((s) => s.text).join(' '))));
  const errors = results.reduce((a, r) => a + r.errors, 0);
  const words = results.reduce((a, r) => a + r.refWords, 0);
  console.log(JSON.stringify(args), `WER ${((100 * errors) / words).toFixed(1)}% over ${words} words`);
  await engine.close();
}
