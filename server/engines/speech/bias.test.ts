import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSpeechEngine, decoderBias } from './embedded.js';
import { stockModel } from './pocketsphinx/ffi.js';
import { hasVoice, synthesize } from './synth.js';
import type { SpeechSegment } from './types.js';

const hasLib = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'].some((d) => fs.existsSync(`${d}/libpocketsphinx.so.3`));
const VOICE = 'festival:cmu_us_slt_arctic_hts';
const ready = hasLib && hasVoice(VOICE) && hasVoice('en-us');
if (!ready) console.warn('speech bias tests skipped: apt-get install pocketsphinx pocketsphinx-en-us festival festvox-us-slt-hts espeak-ng sox');

const words = (segs: SpeechSegment[]) => segs.flatMap((s) => s.words.map((w) => w.word));

describe('decoderBias', () => {
  it("keeps the session's distinctive words and drops common ones", () => {
    const b = decoderBias({ terms: ['Lisinopril 10 MG Oral Tablet', 'Essential hypertension', 'Type 2 diabetes mellitus'], text: 'Patient reports good adherence with metformin.' }, 0.05);
    const w = b!.words.map((x) => x.word);
    expect(w).toEqual(expect.arrayContaining(['lisinopril', 'oral', 'tablet', 'essential', 'hypertension', 'type', 'diabetes', 'mellitus', 'adherence', 'metformin']));
    expect(w).not.toContain('patient');
    expect(w).not.toContain('with');
    expect(b!.weight).toBe(0.05);
    expect(decoderBias({ terms: [] }, 0.05)).toBeNull();
    expect(decoderBias({ terms: ['lisinopril'] }, 0)).toBeNull();
  });
});

// The stock en-us model has no "lisinopril" at all: only the session's vocabulary (with an espeak-ng
// pronunciation) can produce it, so the same audio is heard differently with and without the context.
describe.skipIf(!ready)('context-biased recognition and confidence (pocketsphinx)', () => {
  let engine: EmbeddedSpeechEngine;
  let pcm: Buffer;
  beforeAll(async () => {
    engine = new EmbeddedSpeechEngine({ model: stockModel(), poolSize: 1, biasWeight: 0.05 });
    await engine.warm();
    pcm = synthesize('I will start lisinopril ten milligrams once a day.', VOICE);
  }, 240_000);
  afterAll(() => engine?.close());

  it("recognises a drug name from the session's context that it misses without it", async () => {
    const plain = words(await engine.transcribe(pcm));
    const biased = words(await engine.transcribe(pcm, { bias: { terms: ['Lisinopril 10 MG Oral Tablet', 'Essential hypertension'] } }));
    expect(plain).not.toContain('lisinopril');
    expect(biased).toContain('lisinopril');
    expect(biased).toEqual(expect.arrayContaining(['ten', 'milligrams']));
    // One session's words stay with it: the next stream on the same decoder thread is not biased.
    expect(words(await engine.transcribe(pcm))).toEqual(plain);
  }, 240_000);

  it('gives every final word and segment a confidence in [0, 1], lower on garbled audio', async () => {
    const clean = await engine.transcribe(pcm);
    // The same speech played backwards: speech-like sound whose words the recogniser cannot be sure of.
    const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length)).reverse();
    const garbled = await engine.transcribe(Buffer.from(samples.buffer));
    for (const s of [...clean, ...garbled]) {
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
      for (const w of s.words) {
        expect(w.confidence).toBeGreaterThanOrEqual(0);
        expect(w.confidence).toBeLessThanOrEqual(1);
      }
    }
    const mean = (segs: SpeechSegment[]) => {
      const ws = segs.flatMap((s) => s.words);
      return ws.reduce((a, w) => a + w.confidence!, 0) / ws.length;
    };
    expect(garbled.flatMap((s) => s.words).some((w) => w.confidence! < 0.5)).toBe(true);
    expect(mean(garbled)).toBeLessThan(mean(clean));
    // "ten milligrams" is clear in the clean audio.
    expect(clean.flatMap((s) => s.words).find((w) => w.word === 'milligrams')!.confidence).toBeGreaterThan(0.5);
  }, 240_000);
});

// Issue 30 item 6: a session's decoder that cannot be built (here its vocabulary file cannot be written, as
// when memory or disk runs out) is not a silent fallback: the engine reports it and marks every segment.
describe.skipIf(!ready)('a session vocabulary that cannot be built', () => {
  let engine: EmbeddedSpeechEngine;
  let gone: string;
  beforeAll(async () => {
    // A decoder thread keeps the temp directory it started with; this one's is removed once it has started.
    gone = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-bias-gone-'));
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = gone;
    try {
      engine = new EmbeddedSpeechEngine({ model: stockModel(), poolSize: 1, biasWeight: 0.05 });
      await engine.warm();
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    fs.rmSync(gone, { recursive: true, force: true });
  }, 240_000);
  afterAll(() => engine?.close());

  it('decodes with the base model, reports why and marks the segments unbiased', async () => {
    const pcm = synthesize('I will start lisinopril ten milligrams once a day.', VOICE);
    const reasons: string[] = [];
    const biased = await engine.transcribe(pcm, { bias: { terms: ['Lisinopril 10 MG Oral Tablet'] }, onUnbiased: (r) => reasons.push(r) });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain(gone);
    expect(biased.length).toBeGreaterThan(0);
    expect(biased.every((s) => s.unbiased === true)).toBe(true);
    expect(words(biased)).not.toContain('lisinopril');
    // Without a vocabulary nothing is missing, so nothing is marked.
    const plain = await engine.transcribe(pcm, { onUnbiased: (r) => reasons.push(r) });
    expect(plain.some((s) => s.unbiased)).toBe(false);
    expect(reasons).toHaveLength(1);
  }, 240_000);
});
