/**
 * Speech engine benchmark: WER on real read speech (Debian pocketsphinx-testdata) and on clinic
 * dialogues synthesised from ACI-BENCH VALID conversations (two espeak-ng voices), for the stock and the
 * clinical language model; real-time factor per stream; concurrent real-time streams one process
 * sustains; speaker-role accuracy; peak memory.
 * Usage: npm run bench:speech [-- --dialogues 5 --turns 24 --quick]
 * With SPEECH_BASE_URL set, the OpenAI-compatible engine is measured on the same recordings too.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { EmbeddedSpeechEngine, clinicalModel } from '../../server/engines/speech/embedded.js';
import { OpenAISpeechEngine } from '../../server/engines/speech/openai.js';
import { stockModel } from '../../server/engines/speech/pocketsphinx/ffi.js';
import { assignSpeakerRoles } from '../../server/engines/speech/speakers.js';
import type { SpeechEngine, SpeechSegment } from '../../server/engines/speech/types.js';
import { wordErrorRate } from '../../server/engines/speech/wer.js';
import { clinicRecordings, humanRecordings, type Recording } from './corpus.js';

const args = process.argv.slice(2);
const num = (name: string, d: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const quick = args.includes('--quick');
const DIALOGUES = num('dialogues', quick ? 2 : 4);
const TURNS = num('turns', quick ? 10 : 20);
const cores = os.availableParallelism();
const durS = (pcm: Buffer) => pcm.length / 2 / 16000;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const human = humanRecordings();
const clinic = clinicRecordings('valid', DIALOGUES, TURNS);
console.log(`machine: ${cores} cores, ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`);
console.log(`human speech: ${human.length} recordings (${human.reduce((a, r) => a + durS(r.pcm), 0).toFixed(0)} s): ${human.map((r) => r.id).join(', ')}`);
if (!clinic.length) console.log('clinic dialogues: skipped (../shared/data/aci-bench/valid.jsonl not found)');
else
  console.log(
    `clinic dialogues (ACI-BENCH valid, first ${TURNS} turns, voices en-us+m3 / en-us+f3): ${clinic.map((r) => r.id.split('/')[1]).join(', ')} (${clinic.reduce((a, r) => a + durS(r.pcm), 0).toFixed(0)} s)`,
  );

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
  const frame = 3200;
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

const rows: string[] = [];
const row = (...c: (string | number)[]) => rows.push(`| ${c.join(' | ')} |`);
const engines: { name: string; make: () => SpeechEngine }[] = [
  { name: 'embedded, stock en-us LM (before)', make: () => new EmbeddedSpeechEngine({ model: stockModel(), poolSize: cores }) },
];
if (clinicalModel()) engines.push({ name: 'embedded, clinical LM (after)', make: () => new EmbeddedSpeechEngine({ lm: 'clinical', poolSize: cores }) });
else console.log('clinical model not built: run npm run speech:build-lm');
if (process.env.SPEECH_BASE_URL) {
  engines.push({
    name: `openai-compatible (${process.env.SPEECH_MODEL ?? 'whisper-1'})`,
    make: () => new OpenAISpeechEngine({ baseUrl: process.env.SPEECH_BASE_URL!, apiKey: process.env.SPEECH_API_KEY, model: process.env.SPEECH_MODEL ?? 'whisper-1' }),
  });
}

const speedSample = clinic[0]?.pcm ?? human[0]!.pcm;
rows.push('| engine | WER human read speech | WER clinic dialogues | speaker-role accuracy | real-time factor per stream | concurrent real-time streams |');
rows.push('|---|---|---|---|---|---|');
for (const e of engines) {
  const engine = e.make();
  if (engine instanceof EmbeddedSpeechEngine) await engine.warm();
  const h = await transcribeAll(engine, human);
  const c = await transcribeAll(engine, clinic);
  const hw = wer(human, h.segs);
  const cw = wer(clinic, c.segs);
  const sp = clinic.length ? speakerAccuracy(clinic, c.segs) : null;
  let rtfText = 'n/a';
  let streamsText = 'n/a';
  if (engine instanceof EmbeddedSpeechEngine) {
    const r = await rtf(engine, speedSample);
    rtfText = `${r.cpu.toFixed(2)} CPU / ${r.wall.toFixed(2)} wall`;
    // Capacity from CPU time with 15 % headroom, then checked with that many paced streams.
    const n = Math.max(1, Math.floor((cores * 0.85) / r.cpu));
    const excerpt = speedSample.subarray(0, Math.min(speedSample.length, 20 * 32000));
    let check = await paced(engine, excerpt, n);
    let sustained = check.ok ? n : 0;
    if (!check.ok && n > 1) {
      check = await paced(engine, excerpt, n - 1);
      sustained = check.ok ? n - 1 : 0;
    }
    streamsText = `${n} by CPU; paced check: ${sustained} ok (worst final lag ${check.worstLagS.toFixed(1)} s, load avg ${os.loadavg()[0]!.toFixed(1)})`;
  }
  console.log(
    `${e.name}: human WER ${pct(hw.wer)} (${hw.words} words), clinic WER ${pct(cw.wer)} (${cw.words} words)` +
      `${sp ? `, speaker roles ${pct(sp.accuracy)} of ${sp.segments} segments` : ''}, RTF ${rtfText}, streams ${streamsText}`,
  );
  row(e.name, `${pct(hw.wer)} (${hw.words} w)`, clinic.length ? `${pct(cw.wer)} (${cw.words} w)` : 'n/a', sp ? `${pct(sp.accuracy)} (${sp.segments} seg)` : 'n/a', rtfText, streamsText);
  await engine.close();
}
console.log(`\npeak memory (max RSS, all decoder threads): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`);
console.log(rows.join('\n'));
