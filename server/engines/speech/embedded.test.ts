import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EmbeddedSpeechEngine } from './embedded.js';
import { createSpeechEngine, speechConfigFromEnv } from './index.js';
import { segmenterFactory } from './silero-segmenter.js';
import { decodeWav, toPcm16Mono16k } from './audio.js';
import { stockModel } from './pocketsphinx/ffi.js';
import type { SpeechSegment } from './types.js';

// Real human speech with transcripts, from Debian's pocketsphinx-testdata.
const TESTDATA = '/usr/share/pocketsphinx/test/data';
const hasLib = ['libpocketsphinx.so.3', 'libsphinxbase.so.3'].some((l) =>
  ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'].some((d) => fs.existsSync(`${d}/${l}`)),
);
const hasData = fs.existsSync(`${TESTDATA}/goforward.raw`) && fs.existsSync(`${TESTDATA}/librivox`);
if (!hasLib || !hasData) console.warn('embedded speech tests skipped: apt-get install pocketsphinx pocketsphinx-en-us pocketsphinx-testdata');

const goforward = () => fs.readFileSync(`${TESTDATA}/goforward.raw`);
const librivox = (id: string) => toPcm16Mono16k(decodeWav(fs.readFileSync(`${TESTDATA}/librivox/sense_and_sensibility_01_austen_64kb-${id}.wav`)));
const words = (segs: SpeechSegment[]) => segs.flatMap((s) => s.words.map((w) => w.word));

describe.skipIf(!hasLib || !hasData)('embedded engine (pocketsphinx)', () => {
  let engine: EmbeddedSpeechEngine;
  beforeAll(async () => {
    engine = new EmbeddedSpeechEngine({ poolSize: 2, lm: 'stock' });
    await engine.warm();
  }, 240_000);
  afterAll(() => engine?.close());

  it('is the default engine and is configured from the environment', async () => {
    expect(speechConfigFromEnv({}).engine).toBe('embedded');
    expect(speechConfigFromEnv({ SPEECH_ENGINE: 'openai', SPEECH_POOL_SIZE: '3' })).toMatchObject({ engine: 'openai', poolSize: 3 });
    expect(() => speechConfigFromEnv({ SPEECH_ENGINE: 'magic' })).toThrow(/SPEECH_ENGINE/);
    expect(speechConfigFromEnv({ SPEECH_VAD: ' Silero ' }).vad).toBe('silero');
    expect(speechConfigFromEnv({ SPEECH_VAD: 'energy' }).vad).toBe('energy');
    expect(speechConfigFromEnv({}).vad).toBeUndefined();
    expect(() => speechConfigFromEnv({ SPEECH_VAD: 'webrtc' })).toThrow(/SPEECH_VAD must be silero or energy \(got "webrtc"\)/);
    const none = createSpeechEngine({ engine: 'none' });
    expect(none.name).toBe('none');
    expect(await none.transcribe(goforward())).toEqual([]);
  });

  it('transcribes a whole recording into final segments with word timings', async () => {
    const segs = await engine.transcribe(goforward());
    expect(segs.length).toBeGreaterThan(0);
    expect(segs.every((s) => s.isFinal)).toBe(true);
    expect(words(segs).join(' ')).toMatch(/go forward ten meters/);
    for (const s of segs) {
      for (const w of s.words) {
        expect(w.endMs).toBeGreaterThan(w.startMs);
        expect(w.startMs).toBeGreaterThanOrEqual(s.startMs);
        expect(w.endMs).toBeLessThanOrEqual(s.endMs);
      }
    }
    const dur = (goforward().length / 2 / 16000) * 1000;
    expect(segs.at(-1)!.endMs).toBeLessThanOrEqual(dur + 10);
  }, 300_000);

  it('emits live partial segments while audio is still being written', async () => {
    const pcm = librivox('0870');
    const got: SpeechSegment[] = [];
    // Written faster than spoken, so partials are asked for whatever the pace (the next test: paced).
    const s = engine.openStream({ onSegment: (g) => got.push(g), partials: 'every' });
    const half = Math.floor(pcm.length / 4) * 2;
    for (let o = 0; o < half; o += 3200) s.write(pcm.subarray(o, Math.min(half, o + 3200)));
    await vi.waitFor(() => expect(got.some((g) => !g.isFinal && g.words.length > 0)).toBe(true), { timeout: 120_000 });
    for (let o = half; o < pcm.length; o += 3200) s.write(pcm.subarray(o, Math.min(pcm.length, o + 3200)));
    await s.end();
    const finals = got.filter((g) => g.isFinal);
    expect(finals.length).toBeGreaterThan(0);
    expect(words(finals)).toEqual(expect.arrayContaining(['john', 'power']));
  }, 300_000);

  it('gives no partials for audio written faster than it is spoken, and the same finals', async () => {
    const pcm = librivox('0870');
    const run = async (partials: 'paced' | 'every') => {
      const got: SpeechSegment[] = [];
      const s = engine.openStream({ onSegment: (g) => got.push(g), partials });
      for (let o = 0; o < pcm.length; o += 3200) s.write(pcm.subarray(o, Math.min(pcm.length, o + 3200)));
      await s.end();
      return got;
    };
    const paced = await run('paced');
    const every = await run('every');
    expect(paced.filter((g) => !g.isFinal)).toEqual([]);
    expect(every.some((g) => !g.isFinal)).toBe(true);
    expect(paced).toEqual(every.filter((g) => g.isFinal));
  }, 300_000);

  it('tolerates writes that split a sample', async () => {
    const pcm = goforward();
    const got: SpeechSegment[] = [];
    const s = engine.openStream({ onSegment: (g) => g.isFinal && got.push(g) });
    for (let o = 0; o < pcm.length; o += 3201) s.write(pcm.subarray(o, o + 3201));
    await s.end();
    expect(words(got).join(' ')).toMatch(/go forward ten meters/);
  }, 300_000);

  it('runs two concurrent streams on two decoder threads with the same results as one at a time', async () => {
    const a = librivox('0890');
    const b = librivox('0920');
    const alone = [await engine.transcribe(a), await engine.transcribe(b)].map((s) => words(s).join(' '));
    // Interleaved writes, as two clinic rooms streaming at once.
    const results: SpeechSegment[][] = [[], []];
    const streams = [0, 1].map((i) => engine.openStream({ onSegment: (g) => g.isFinal && results[i]!.push(g) }));
    for (let o = 0; o < Math.max(a.length, b.length); o += 3200) {
      if (o < a.length) streams[0]!.write(a.subarray(o, o + 3200));
      if (o < b.length) streams[1]!.write(b.subarray(o, o + 3200));
    }
    await Promise.all(streams.map((s) => s.end()));
    expect(engine.pool.threads).toBe(2);
    expect(results.map((r) => words(r).join(' '))).toEqual(alone);
    expect(alone[0]).toMatch(/selfish/);
    expect(alone[1]).toMatch(/married/);
  }, 300_000);

  it('stops a closed stream without emitting more segments', async () => {
    const got: SpeechSegment[] = [];
    const s = engine.openStream({ onSegment: (g) => got.push(g) });
    s.write(goforward());
    s.close();
    expect(() => s.write(goforward())).toThrow(/closed/);
    const after = await engine.transcribe(goforward());
    expect(words(after).join(' ')).toMatch(/go forward/);
    expect(got.filter((g) => g.isFinal)).toEqual([]);
  }, 300_000);

  it('segments with Silero when SPEECH_VAD=silero, live stream and final pass alike', async () => {
    const silero = new EmbeddedSpeechEngine({ poolSize: 1, lm: 'stock', segmenter: segmenterFactory(speechConfigFromEnv({ SPEECH_VAD: 'silero' }).vad!) });
    try {
      const segs = await silero.transcribe(goforward());
      expect(words(segs).join(' ')).toMatch(/go forward ten meters/);
      const pcm = librivox('0870');
      const whole = await silero.transcribe(pcm);
      expect(words(whole)).toEqual(expect.arrayContaining(['john', 'power']));
      // A live stream written in 100 ms frames ends with the same finals as the final pass's 1 s writes.
      const live: SpeechSegment[] = [];
      const s = silero.openStream({ onSegment: (g) => g.isFinal && live.push(g) });
      for (let o = 0; o < pcm.length; o += 3200) s.write(pcm.subarray(o, Math.min(pcm.length, o + 3200)));
      await s.end();
      expect(live.map((g) => [g.text, g.startMs, g.endMs])).toEqual(whole.map((g) => [g.text, g.startMs, g.endMs]));
    } finally {
      await silero.close();
    }
  }, 300_000);

  it('times words in milliseconds at whatever frame rate the decoder runs (-frate)', async () => {
    const at = async (frate: string) => {
      const e = new EmbeddedSpeechEngine({ poolSize: 1, model: { ...stockModel(), args: { '-frate': frate } } });
      try {
        return (await e.transcribe(goforward())).flatMap((s) => s.words);
      } finally {
        await e.close();
      }
    };
    const [hundred, eighty] = [await at('100'), await at('80')];
    const meters = (ws: typeof hundred) => ws.find((w) => w.word === 'meters')!;
    // "meters" ends ~2.1 s into the recording: counted as 10 ms frames, 80 frames a second would put it 0.4 s early.
    expect(meters(hundred).endMs).toBeGreaterThan(1800);
    expect(Math.abs(meters(eighty).endMs - meters(hundred).endMs)).toBeLessThanOrEqual(60);
    expect(Math.abs(meters(eighty).startMs - meters(hundred).startMs)).toBeLessThanOrEqual(60);
  }, 300_000);
});
