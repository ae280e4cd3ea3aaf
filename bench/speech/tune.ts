/**
 * Decoder and interpolation sweep on synthesised TRAIN dialogues only (the valid split is reserved for
 * measuring). Each setting is decoded on the same espeak-ng and natural-voice (Festival, Flite) recordings.
 * Usage: node --import tsx bench/speech/tune.ts [encounters] [turns]
 *   TUNE_MODEL_DIR=dir           a clinical model built without the tuned encounters (see below)
 *   TUNE_SKIP=10                 first train encounter decoded (0-based)
 *   TUNE_SETS=espeak,festival,flite  voice sets to decode
 *   TUNE_NOSTOCK=1               leave out the stock model alone
 *   TUNE_STOCK='[0.3,0.5,0.7]'   weights of the stock en-us model interpolated with the clinical one
 *   TUNE_GRID='[{"-lw":"6.5"}]'  decoder argument sets (with the interpolation in model/interpolation.json)
 */
import os from 'node:os';
import { EmbeddedSpeechEngine, clinicalModel } from '../../server/engines/speech/embedded.js';
import { stockModel } from '../../server/engines/speech/pocketsphinx/ffi.js';
import type { DecoderModel } from '../../server/engines/speech/pocketsphinx/ffi.js';
import { wordErrorRate } from '../../server/engines/speech/wer.js';
import { NATURAL_VOICES, VOICES } from '../../server/engines/speech/synth.js';
import { clinicRecordings } from './corpus.js';

const n = Number(process.argv[2] ?? 2);
const turns = Number(process.argv[3] ?? 12);
const skip = Number(process.env.TUNE_SKIP ?? 10);
// The shipped clinical model is trained on every train dialogue, so on train audio it has seen the very
// sentences and beats stock by far more than on unseen speech, which would push the stock weight towards 0.
// Weights are therefore tuned with a model built the same way from train minus the decoded encounters:
//   npm run speech:build-lm -- --data <copy of ../shared/data with those lines left out of train.jsonl> --out <dir>
const modelDir = process.env.TUNE_MODEL_DIR;
const voiceSets: Record<string, Record<'CLINICIAN' | 'PATIENT', string>> = {
  espeak: VOICES,
  festival: NATURAL_VOICES,
  flite: { CLINICIAN: 'flite:rms', PATIENT: 'flite:slt' },
};
const chosen = (process.env.TUNE_SETS ?? 'espeak,festival,flite').split(',');
const sets = Object.fromEntries(chosen.map((k) => [k, clinicRecordings('train', n, turns, skip, voiceSets[k]!)]));
if (!Object.values(sets).some((r) => r.length)) throw new Error('ACI-BENCH train split not found');
const base = clinicalModel(modelDir, { interpolate: false });
if (!base) throw new Error('run npm run speech:build-lm first');

const candidates: { name: string; model: DecoderModel }[] = process.env.TUNE_NOSTOCK ? [] : [{ name: 'stock', model: stockModel() }];
for (const w of process.env.TUNE_STOCK ? (JSON.parse(process.env.TUNE_STOCK) as number[]) : [0, 0.3, 0.5, 0.7]) {
  candidates.push({ name: `clinical + stock ${w}`, model: clinicalModel(modelDir, { stockWeight: w })! });
}
for (const args of process.env.TUNE_GRID ? (JSON.parse(process.env.TUNE_GRID) as Record<string, string>[]) : []) {
  const m = clinicalModel(modelDir)!;
  candidates.push({ name: `interpolated ${JSON.stringify(args)}`, model: { ...m, args: { ...m.args, ...args } } });
}
for (const c of candidates) {
  const engine = new EmbeddedSpeechEngine({ model: c.model, poolSize: os.availableParallelism() });
  const out: string[] = [];
  for (const [name, recs] of Object.entries(sets)) {
    // The decoder threads are this process's, so its CPU time is the decoding's (the machine's load aside).
    const cpu0 = process.cpuUsage();
    const results = await Promise.all(recs.map(async (r) => wordErrorRate(r.reference, (await engine.transcribe(r.pcm)).map((s) => s.text).join(' '))));
    const cpu = process.cpuUsage(cpu0);
    const audioSeconds = recs.reduce((a, r) => a + r.pcm.length / 32_000, 0);
    const errors = results.reduce((a, r) => a + r.errors, 0);
    const words = results.reduce((a, r) => a + r.refWords, 0);
    const rtf = (cpu.user + cpu.system) / 1e6 / audioSeconds;
    out.push(`${name} ${((100 * errors) / words).toFixed(1)}% (${words} w, ${rtf.toFixed(3)} CPU-s per audio s)`);
  }
  console.log(`${c.name}: ${out.join(', ')}`);
  await engine.close();
}
