/**
 * Speech engine benchmark. Each set of recordings is reported separately, every engine on the same audio
 * in the same run:
 *   - real human speech shipped by Debian (pocketsphinx-testdata read speech, alsa-utils' spoken words),
 *   - ACI-BENCH VALID clinic dialogues spoken by espeak-ng's formant voices,
 *   - the same dialogues spoken by natural voices built from recorded speech: Festival (kal diphone /
 *     slt HTS) and Flite (rms / slt),
 * for the stock en-us model, the previous default (clinical interpolated with stock at decode time) and the
 * lean model merged offline (the default when built), each with its CPU per audio second (process CPU time,
 * all decoder threads: comparable on a loaded machine, unlike wall time).
 * --split train: the held-out fold of train (encounters i % 5 == 4, never in any model; bench/notes/folds.ts)
 * instead of valid: what build-lm's stock weight and pruning are chosen on. --lean-dirs a,b: further lean
 * models (build-lm --out DIR) as rows. --clinical-alone: the clinical model alone as a row too.
 * Then drug-name and diagnosis-term recall of the default engine with and without each session's context
 * (the terms its gold note names, as an EMR and context diagnoses would carry them), on the same audio.
 * --no-context leaves out that recall pass (it rebuilds a decoder per recording, ~a third of the CPU).
 * --tempo 1.25: each set once more, spoken 1.25 times as fast (sox tempo, pitch kept): talk is faster than reading.
 * With --speed: real-time factor and concurrent real-time streams; speaker-role accuracy on espeak.
 * Usage: npm run bench:speech [-- --dialogues 4 --turns 12 --voices espeak,festival,flite --weights 0.3,0.7 --speed]
 * The default (4 valid dialogues x 12 turns, ~700 words per voice set) takes ~16 min of CPU; --quick
 * (1 dialogue x 8 turns) is a smoke run whose figures are not of record. --weights adds rows for other
 * stock weights of the interpolation, to show on valid what the train sweep (tune.ts) chose between; the
 * choice itself is made on train only.
 * --decoder-args '{"-fwdflat":"no"}|{…}': rows of the lean model with other decoder settings (see below).
 * --vads energy,silero: the default engine only, once per segmenter (SPEECH_VAD), to choose its default.
 * With SPEECH_BASE_URL set, the OpenAI-compatible engine is measured on the same recordings too.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { EmbeddedSpeechEngine, clinicalModel, leanModel, readInterpolation } from '../../server/engines/speech/embedded.js';
import { defaultLm } from '../../server/engines/speech/embedded-models.js';
import { isHeldOut } from '../notes/folds.js';
import { OpenAISpeechEngine } from '../../server/engines/speech/openai.js';
import { stockModel } from '../../server/engines/speech/pocketsphinx/ffi.js';
import { assignSpeakerRoles } from '../../server/engines/speech/speakers.js';
import type { SpeechEngine, SpeechSegment } from '../../server/engines/speech/types.js';
import { wordErrorRate } from '../../server/engines/speech/wer.js';
import { NATURAL_VOICES, VOICES } from '../../server/engines/speech/synth.js';
import { clinicRecordings, humanRecordings, spedUp, type Recording } from './corpus.js';
import { contextTerms, termRecall, termSets } from './terms.js';
import { BYTES_PER_MS } from '../../lib/contracts/stream-protocol.js';
import fs from 'node:fs';
import { createSpeechEngine, speechConfigFromEnv } from '../../server/engines/speech/index.js';
import { segmenterFactory, type SpeechVad } from '../../server/engines/speech/silero-segmenter.js';

const args = process.argv.slice(2);
// --engine sherpa: the neural engine on SPEECH_MODEL_DIR (README, Neural speech) instead of the embedded rows.
const engineArg = args.includes('--engine') ? args[args.indexOf('--engine') + 1] : 'embedded';
const sherpaDir = engineArg === 'sherpa' ? speechConfigFromEnv(process.env).modelDir! : null;
if (sherpaDir && !fs.existsSync(sherpaDir)) {
  console.log(`--engine sherpa: no model directory at ${sherpaDir} (set SPEECH_MODEL_DIR, or npm run speech:models -- download NAME): nothing to measure`);
  process.exit(0);
}
const num = (name: string, d: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const quick = args.includes('--quick');
const DIALOGUES = num('dialogues', quick ? 1 : 4);
const TURNS = num('turns', quick ? 8 : 12);
const cores = os.availableParallelism();
const durS = (pcm: Buffer) => pcm.length / BYTES_PER_MS / 1000;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const speed = args.includes('--speed');
const voiceSets = [
  { name: 'espeak-ng (en-us+m3 / en-us+f3)', voices: VOICES },
  { name: 'Festival (kal diphone / slt HTS)', voices: NATURAL_VOICES },
  { name: 'Flite (rms / slt)', voices: { CLINICIAN: 'flite:rms', PATIENT: 'flite:slt' } },
];
// --voices espeak,festival,flite picks voice sets (all by default); real human speech is always measured.
const vi = args.indexOf('--voices');
const wanted = vi >= 0 ? args[vi + 1]!.split(',') : null;
const human = humanRecordings();
const split = args.includes('--split') ? (args[args.indexOf('--split') + 1] as 'train' | 'valid') : 'valid';
const keep = split === 'train' ? isHeldOut : () => true;
const sets: { name: string; recs: Recording[]; clinic: boolean }[] = [{ name: 'real human speech', recs: human, clinic: false }];
for (const v of voiceSets) {
  if (wanted && !wanted.some((w) => v.name.toLowerCase().startsWith(w))) continue;
  sets.push({ name: `clinic dialogues, ${v.name}`, recs: clinicRecordings(split, DIALOGUES, TURNS, 0, v.voices, keep), clinic: true });
}
console.log(`machine: ${cores} cores, ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);
console.log(`real human speech: ${human.length} recordings (${human.reduce((a, r) => a + durS(r.pcm), 0).toFixed(0)} s): ${human.map((r) => r.id).join(', ')}`);
// --tempo 1.25: every set again, spoken that much faster (sox tempo, pitch kept), as sets of their own.
const tempo = num('tempo', 0);
if (tempo) for (const set of [...sets]) sets.push({ name: `${set.name}, ${tempo}x faster`, recs: set.recs.map((r) => spedUp(r, tempo)), clinic: set.clinic });
const clinic = sets[1]!.recs;
if (!clinic.length) console.log('clinic dialogues: skipped (../shared/data/aci-bench/valid.jsonl not found)');
else console.log(`clinic dialogues: ACI-BENCH ${split === 'train' ? 'train, held-out fold' : 'valid'} ${clinic.map((r) => r.id.split('/')[1]).join(', ')}, first ${TURNS} turns, per voice set ${clinic.reduce((a, r) => a + durS(r.pcm), 0).toFixed(0)} s`);

async function transcribeAll(engine: SpeechEngine, recs: Recording[]): Promise<{ segs: SpeechSegment[][]; wallS: number }> {
  const t0 = performance.now();
  const segs: SpeechSegment[][] = new Array(recs.length);
  let next = 0;
  // As many recordings at once as there are decoder threads.
  await Promise.all(
    Array.from({ length: cores }, async () => {
      while (next < recs.length) {
        const i = next++;
        segs[i] = await engine.transcribe(recs[i]!.pcm);
      }
    }),
  );
  return { segs, wallS: (performance.now() - t0) / 1000 };
}

function wer(recs: Recording[], segs: SpeechSegment[][]) {
  let errors = 0;
  let words = 0;
  recs.forEach((r, i) => {
    const w = wordErrorRate(r.reference, segs[i]!.map((s) => s.text).join(' '));
    errors += w.errors;
    words += w.refWords;
  });
  return { wer: words ? errors / words : NaN, words };
}

function speakerAccuracy(recs: Recording[], segs: SpeechSegment[][]) {
  let correct = 0;
  let total = 0;
  recs.forEach((r, i) => {
    const tagged = assignSpeakerRoles(segs[i]!, r.pcm);
    for (const s of tagged) {
      const mid = (s.startMs + s.endMs) / 2;
      const truth = r.turns!.find((t) => mid >= t.startMs - 300 && mid <= t.endMs + 300);
      if (!truth) continue;
      total++;
      if (truth.role === s.speaker) correct++;
    }
  });
  return { accuracy: total ? correct / total : NaN, segments: total };
}

/**
 * Decoding speed of one stream fed as fast as it is consumed, per audio second: wall time, and CPU time
 * of the whole process (all threads), which stays meaningful when other work shares the machine.
 */
async function rtf(engine: EmbeddedSpeechEngine, pcm: Buffer) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await engine.transcribe(pcm);
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / 1000 / durS(pcm), cpu: (c.user + c.system) / 1e6 / durS(pcm) };
}

/**
 * Streams fed at real time (100 ms frames, as the web app sends them). A count is sustained when every
 * stream's last final segment arrives within 3 s of its audio ending.
 */
async function paced(engine: EmbeddedSpeechEngine, pcm: Buffer, n: number): Promise<{ ok: boolean; worstLagS: number }> {
  const frame = 100 * BYTES_PER_MS;
  const lags = await Promise.all(
    Array.from({ length: n }, async (_, k) => {
      const s = engine.openStream({ onSegment: () => {} });
      const start = performance.now() + k * 37;
      for (let o = 0, f = 0; o < pcm.length; o += frame, f++) {
        const due = start + f * 100;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        s.write(pcm.subarray(o, o + frame));
      }
      const audioEnd = performance.now();
      await s.end();
      return (performance.now() - audioEnd) / 1000;
    }),
  );
  const worst = Math.max(...lags);
  return { ok: worst < 3, worstLagS: worst };
}

const engines: { name: string; make: () => SpeechEngine }[] = [
  { name: 'stock en-us LM (library alone)', make: () => new EmbeddedSpeechEngine({ model: stockModel(), poolSize: cores, biasWeight: 0 }) },
];
const interp = readInterpolation();
if (clinicalModel()) {
  if (args.includes('--clinical-alone')) engines.push({ name: 'clinical LM alone', make: () => new EmbeddedSpeechEngine({ model: clinicalModel(undefined, { interpolate: false })!, poolSize: cores, biasWeight: 0 }) });
  const wi = args.indexOf('--weights');
  for (const w of wi >= 0 ? args[wi + 1]!.split(',').map(Number) : []) {
    if (w !== interp?.stock) engines.push({ name: `clinical + stock interpolated ${(1 - w).toFixed(2)}/${w}`, make: () => new EmbeddedSpeechEngine({ model: clinicalModel(undefined, { stockWeight: w })!, poolSize: cores, biasWeight: 0 }) });
  }
  if (interp?.stock) engines.push({ name: `clinical + stock interpolated at decode time ${(1 - interp.stock).toFixed(2)}/${interp.stock} (SPEECH_LM=clinical)`, make: () => new EmbeddedSpeechEngine({ poolSize: cores, lm: 'clinical' }) });
} else console.log('clinical model not built: run npm run speech:build-lm');
const li = args.indexOf('--lean-dirs');
for (const dir of li >= 0 ? args[li + 1]!.split(',') : []) {
  const m = leanModel(dir);
  if (m) engines.push({ name: `lean ${dir}`, make: () => new EmbeddedSpeechEngine({ model: m, poolSize: cores }) });
}
if (leanModel()) engines.push({ name: 'lean model merged offline (SPEECH_LM=lean)', make: () => new EmbeddedSpeechEngine({ poolSize: cores, lm: 'lean' }) });
// --decoder-args '{"-fwdflat":"no"}|{"-wbeam":"7e-29"}': the lean model with these decoder settings over
// model/decoder.json's, one row each (search parameters are chosen on the held-out fold of train, never valid).
const di = args.indexOf('--decoder-args');
for (const spec of di >= 0 ? args[di + 1]!.split('|') : []) {
  const base = leanModel();
  if (!base) break;
  const extra = JSON.parse(spec) as Record<string, string>;
  const label = Object.entries(extra).map(([k, v]) => `${k} ${v}`).join(' ');
  engines.push({ name: `lean, ${label}`, make: () => new EmbeddedSpeechEngine({ model: { ...base, args: { ...base.args, ...extra } }, poolSize: cores }) });
}
// --skip clinical,lean,stock: rows left out (a candidate checked against stock alone; stock's words are the same in every run).
const skip = args.includes('--skip') ? args[args.indexOf('--skip') + 1]!.split(',') : [];
engines.splice(0, engines.length, ...engines.filter((e) => !skip.some((k) => e.name.includes(`(SPEECH_LM=${k})`) || (k === 'stock' && e.name.startsWith('stock')))));
if (process.env.SPEECH_BASE_URL) {
  engines.push({
    name: `openai-compatible (${process.env.SPEECH_MODEL ?? 'whisper-1'})`,
    make: () => new OpenAISpeechEngine({ baseUrl: process.env.SPEECH_BASE_URL!, apiKey: process.env.SPEECH_API_KEY, model: process.env.SPEECH_MODEL ?? 'whisper-1' }),
  });
}

const vadsArg = args.indexOf('--vads');
if (vadsArg >= 0) {
  const vads = args[vadsArg + 1]!.split(',') as SpeechVad[];
  engines.splice(0, engines.length, ...vads.map((v) => ({ name: `default, SPEECH_VAD=${v}`, make: () => new EmbeddedSpeechEngine({ poolSize: cores, segmenter: segmenterFactory(v) }) })));
}
if (sherpaDir) {
  engines.splice(0, engines.length, { name: `sherpa, ${sherpaDir} (default)`, make: () => createSpeechEngine({ ...speechConfigFromEnv(process.env), engine: 'sherpa' }) });
}

// The engine without SPEECH_LM (model/default.json; sherpa's when measured); the context pass reuses its segments.
const defaultName = engines.find((e) => e.name.endsWith(`(SPEECH_LM=${defaultLm()})`) || e.name.endsWith('(default)'))?.name;
const otherName = engines.find((e) => e.name.includes('(SPEECH_LM=') && e.name !== defaultName)?.name;
const werTable: string[] = [`| engine | ${sets.map((s) => `${s.name} (${s.recs.length ? wer(s.recs, s.recs.map(() => [])).words : 0} words)`).join(' | ')} | CPU-s per audio s |`, `|---|${sets.map(() => '---|').join('')}---|`];
const werBy = new Map<string, number[]>();
const speedRows: string[] = [];
let defaultEngine: SpeechEngine | null = null;
let defaultSegs: SpeechSegment[][][] = [];
for (const e of engines) {
  const engine = e.make();
  if (engine instanceof EmbeddedSpeechEngine) await engine.warm();
  const results: SpeechSegment[][][] = [];
  // The decoder threads are this process's: its CPU time is the decoding's, whatever else loads the machine.
  const cpu0 = process.cpuUsage();
  for (const set of sets) results.push((await transcribeAll(engine, set.recs)).segs);
  const cpu = process.cpuUsage(cpu0);
  const audioS = sets.reduce((a, set) => a + set.recs.reduce((b, r) => b + durS(r.pcm), 0), 0);
  const cpuPerS = (cpu.user + cpu.system) / 1e6 / audioS;
  const wers = sets.map((set, i) => wer(set.recs, results[i]!).wer);
  werBy.set(e.name, wers);
  werTable.push(`| ${e.name} | ${wers.map((w) => pct(w)).join(' | ')} | ${cpuPerS.toFixed(3)} |`);
  console.log(`${e.name}: ${sets.map((set, i) => `${set.name} ${pct(wers[i]!)}`).join(', ')}; ${cpuPerS.toFixed(3)} CPU-s per audio s`);
  if (clinic.length && e === engines.at(-1)) {
    const sp = speakerAccuracy(clinic, results[1]!);
    console.log(`speaker roles (${sets[1]!.name}): ${pct(sp.accuracy)} of ${sp.segments} segments`);
  }
  if (speed && engine instanceof EmbeddedSpeechEngine) {
    const sample = clinic[0]?.pcm ?? human[0]!.pcm;
    const r = await rtf(engine, sample);
    const n = Math.max(1, Math.floor((cores * 0.85) / r.cpu));
    const check = await paced(engine, sample.subarray(0, Math.min(sample.length, 20 * 32000)), n);
    speedRows.push(`| ${e.name} | ${r.cpu.toFixed(2)} CPU / ${r.wall.toFixed(2)} wall | ${n} by CPU; paced check ${check.ok ? 'passed' : 'failed'} (worst final lag ${check.worstLagS.toFixed(1)} s) |`);
  }
  if (e.name === defaultName) {
    defaultEngine = engine;
    defaultSegs = results;
  } else await engine.close();
}

const text = (segs: SpeechSegment[]) => segs.map((s) => s.text).join(' ');
const fmtGoal = (ok: boolean) => (ok ? 'met' : 'NOT met');
const stockW = werBy.get(engines[0]!.name)!;
const prevW = otherName ? werBy.get(otherName) : undefined;
const defW = defaultName ? werBy.get(defaultName) : undefined;
console.log(`\nWER by set (lower is better):\n${werTable.join('\n')}`);
if (defW) {
  // Issue 30: no worse than stock on every voice set (of the held-out fold with --split train).
  console.log(`\nGoals (issue 30: default, ${defaultName}, no worse than stock on every set):`);
  for (let i = 0; i < sets.length; i++) console.log(`- ${sets[i]!.name}: default ${pct(defW[i]!)} vs stock ${pct(stockW[i]!)}: ${fmtGoal(defW[i]! <= stockW[i]!)}`);
  const ei = sets.findIndex((x) => x.name.includes('espeak'));
  if (prevW && ei > 0) console.log(`- espeak-ng dialogues, no regression: default ${pct(defW[ei]!)} vs ${otherName} ${pct(prevW[ei]!)}: ${fmtGoal(defW[ei]! <= prevW[ei]! + 0.005)}`);
}

const terms = termSets();
if (defaultEngine && terms && clinic.length && !args.includes('--no-context')) {
  const rows = ['| voice set | drug names without context | with context | diagnosis terms without context | with context |', '|---|---|---|---|---|'];
  for (let i = 1; i < sets.length; i++) {
    const acc = { d0: { hit: 0, total: 0 }, d1: { hit: 0, total: 0 }, g0: { hit: 0, total: 0 }, g1: { hit: 0, total: 0 } };
    const add = (a: { hit: number; total: number }, b: { hit: number; total: number }) => ((a.hit += b.hit), (a.total += b.total));
    for (const [k, r] of sets[i]!.recs.entries()) {
      const note = r.encounter?.note ?? '';
      const bias = { terms: [...contextTerms(note, terms.drugs), ...contextTerms(note, terms.diagnoses)] };
      const withCtx = text(await defaultEngine.transcribe(r.pcm, { bias }));
      const without = text(defaultSegs[i]![k]!);
      add(acc.d0, termRecall(r.reference, without, terms.drugs));
      add(acc.d1, termRecall(r.reference, withCtx, terms.drugs));
      add(acc.g0, termRecall(r.reference, without, terms.diagnoses));
      add(acc.g1, termRecall(r.reference, withCtx, terms.diagnoses));
    }
    const f = (a: { hit: number; total: number }) => `${a.total ? pct(a.hit / a.total) : 'n/a'} (${a.hit}/${a.total})`;
    rows.push(`| ${sets[i]!.name.replace('clinic dialogues, ', '')} | ${f(acc.d0)} | ${f(acc.d1)} | ${f(acc.g0)} | ${f(acc.g1)} |`);
  }
  console.log(`\nTerm recall of the default engine, same audio, with and without the session's context:\n${rows.join('\n')}`);
}
await defaultEngine?.close();
if (speedRows.length) console.log(`\n| engine | real-time factor per stream | concurrent real-time streams (${cores} cores) |\n|---|---|---|\n${speedRows.join('\n')}`);
const cpu = process.cpuUsage();
console.log(`\npeak memory (max RSS, all decoder threads): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; CPU time of the run ${((cpu.user + cpu.system) / 60e6).toFixed(1)} min`);
