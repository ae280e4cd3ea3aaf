/**
 * Decoder CPU of search settings, A/B on one machine under whatever load it carries (issue 30 item 5).
 * bench:speech runs one engine after another, so when other work starts or stops between two rows their
 * CPU-s per audio second move with it (process CPU time is inflated by a busy machine: shared caches, the
 * sibling hyperthread). Here every setting decodes the same recordings in turn, round after round
 * (A B C A B C …), one decoder thread each, and the figure is the decoder thread's own CPU
 * (CLOCK_THREAD_CPUTIME_ID, stage-cpu.ts `final_decode`) per audio second: the median over rounds and its
 * ratio to the first setting's in the same round. WER comes from bench:speech (deterministic); this only
 * says what a setting costs.
 *
 *   node --import tsx bench/speech/search-cpu.ts [--rounds 3 --dialogues 1 --turns 12 --voices festival,flite]
 *     '{}' '{"-maxhmmpf":"3000"}' …
 */
import { EmbeddedSpeechEngine, leanModel } from '../../server/engines/speech/embedded.js';
import { stageCpuSeconds } from '../../server/engines/speech/stage-cpu.js';
import { NATURAL_VOICES, VOICES } from '../../server/engines/speech/synth.js';
import { BYTES_PER_MS } from '../../lib/contracts/stream-protocol.js';
import { isHeldOut } from '../notes/folds.js';
import { clinicRecordings, type Recording } from './corpus.js';
import os from 'node:os';

const argv = process.argv.slice(2);
const flags = new Map<string, string>();
const variants: Record<string, string>[] = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i]!.startsWith('--')) flags.set(argv[i]!.slice(2), argv[++i]!);
  else variants.push(JSON.parse(argv[i]!) as Record<string, string>);
}
if (!variants.length) variants.push({});
const ROUNDS = Number(flags.get('rounds') ?? 3);
const DIALOGUES = Number(flags.get('dialogues') ?? 1);
const TURNS = Number(flags.get('turns') ?? 12);
const voiceSets: Record<string, Record<string, string>> = {
  espeak: VOICES,
  festival: NATURAL_VOICES,
  flite: { CLINICIAN: 'flite:rms', PATIENT: 'flite:slt' },
};
const recs: Recording[] = [];
for (const v of (flags.get('voices') ?? 'festival,flite').split(',')) recs.push(...clinicRecordings('train', DIALOGUES, TURNS, 0, voiceSets[v]!, isHeldOut));
const audioS = recs.reduce((a, r) => a + r.pcm.length / BYTES_PER_MS / 1000, 0);
const base = leanModel();
if (!base) throw new Error('lean model not built');
const label = (v: Record<string, string>) => (Object.keys(v).length ? Object.entries(v).map(([k, x]) => `${k} ${x}`).join(' ') : 'model/decoder.json as is');
console.log(`machine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model}, load average ${os.loadavg()[0]!.toFixed(1)}; ${recs.length} recordings, ${audioS.toFixed(0)} s of audio, ${ROUNDS} rounds; base settings ${JSON.stringify(base.args)}`);

const engines = variants.map((v) => new EmbeddedSpeechEngine({ model: { ...base, args: { ...base.args, ...v } }, poolSize: 1, biasWeight: 0 }));
await Promise.all(engines.map((e) => e.warm()));
const perRound: number[][] = variants.map(() => []);
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, engine] of engines.entries()) {
    const c0 = stageCpuSeconds().final_decode;
    for (const rec of recs) await engine.transcribe(rec.pcm);
    perRound[i]!.push((stageCpuSeconds().final_decode - c0) / audioS);
  }
  console.log(`round ${r + 1}: ${variants.map((v, i) => `${label(v)} ${perRound[i]![r]!.toFixed(3)}`).join(', ')}; load ${os.loadavg()[0]!.toFixed(1)}`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('\n| decoder setting (over model/decoder.json) | decoder CPU-s per audio s, median | against the first, median of per-round ratios |\n|---|---|---|');
for (const [i, v] of variants.entries()) {
  const ratios = perRound[i]!.map((x, r) => x / perRound[0]![r]!);
  console.log(`| ${label(v)} | ${median(perRound[i]!).toFixed(3)} | ${median(ratios).toFixed(2)} |`);
}
await Promise.all(engines.map((e) => e.close()));
