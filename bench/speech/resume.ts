/**
 * Decode once, per utterance (issue 18): what the final pass costs when a live pass stopped part-way.
 * For valid dialogues in each voice set, a live stream is fed the first `cut` of the audio and closed once its
 * finals are in (as when it was cut off behind the audio or the connection dropped); the final pass is then
 * timed three ways: decoding all, resuming from the live pass, and resuming from a live pass that finished.
 * CPU is this process's (the decoder threads are its own), per second of audio, so machine load matters little.
 * It also checks that the resumed result equals decoding all.
 *
 *   node --import tsx bench/speech/resume.ts [encounters=2] [turns=12] [cut=0.5]
 */
import { EmbeddedSpeechEngine } from '../../server/engines/speech/embedded.js';
import { NATURAL_VOICES, VOICES } from '../../server/engines/speech/synth.js';
import type { DecodedPrefix } from '../../server/engines/speech/types.js';
import { clinicRecordings } from './corpus.js';

const n = Number(process.argv[2] ?? 2);
const turns = Number(process.argv[3] ?? 12);
const cut = Number(process.argv[4] ?? 0.5);
const sets = { espeak: VOICES, festival: NATURAL_VOICES, flite: { CLINICIAN: 'flite:rms', PATIENT: 'flite:slt' } };

const engine = new EmbeddedSpeechEngine({ poolSize: 1 });
await engine.warm();

async function cpu<T>(f: () => Promise<T>): Promise<[T, number]> {
  const c0 = process.cpuUsage();
  const r = await f();
  const c = process.cpuUsage(c0);
  return [r, (c.user + c.system) / 1e6];
}

/** Resolves once this process used under 5 % of a core for a second: the decoder threads have nothing queued. */
async function processIdle(): Promise<void> {
  for (;;) {
    const c0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 1000));
    const c = process.cpuUsage(c0);
    if (c.user + c.system < 50_000) return;
  }
}

/** The live pass over the first `fraction` of the audio, stopped once it has decoded all it was fed. */
async function livePrefix(pcm: Buffer, fraction: number): Promise<DecodedPrefix> {
  const s = engine.openStream({ onSegment: () => {} });
  const end = fraction >= 1 ? pcm.length : Math.floor((pcm.length * fraction) / 3200) * 3200;
  for (let o = 0; o < end; o += 3200) s.write(pcm.subarray(o, Math.min(end, o + 3200)));
  if (fraction >= 1) {
    await s.end();
    return s.decoded!()!;
  }
  // end() would close the utterance the cut fell in, which the full audio continues; close() keeps only what
  // the audio itself ended. The pass is first left to decode all it was fed: until the process is idle.
  await processIdle();
  s.close();
  return s.decoded!()!;
}

console.log(`${n} valid dialogues × ${turns} turns per voice set; live pass stopped after ${Math.round(cut * 100)} % of the audio`);
for (const [name, voices] of Object.entries(sets)) {
  const recs = clinicRecordings('valid', n, turns, 0, voices);
  let audio = 0;
  let full = 0;
  let resumed = 0;
  let finished = 0;
  let same = true;
  let replayed = 0;
  let utterances = 0;
  for (const r of recs) {
    audio += r.pcm.length / 32_000;
    const [whole, a] = await cpu(() => engine.transcribe(r.pcm));
    const prefix = await livePrefix(r.pcm, cut);
    await processIdle();
    const [res, b] = await cpu(() => engine.transcribe(r.pcm, { decoded: prefix }));
    const done = await livePrefix(r.pcm, 1);
    await processIdle();
    const [fin, c] = await cpu(() => engine.transcribe(r.pcm, { decoded: done }));
    full += a;
    resumed += b;
    finished += c;
    replayed += prefix.utterances;
    utterances += done.utterances;
    same &&= JSON.stringify(res) === JSON.stringify(whole) && JSON.stringify(fin) === JSON.stringify(whole);
  }
  const per = (x: number) => (x / audio).toFixed(3);
  console.log(
    `${name}: ${audio.toFixed(0)} s audio, ${utterances} utterances; final pass CPU-s per audio s: decode all ${per(full)}, ` +
      `resume after ${replayed} live utterances ${per(resumed)}, after a finished live pass ${per(finished)}; same result: ${same}`,
  );
}
await engine.close();
