import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SherpaSpeechEngine } from './engine.js';
import { decodeTones, offlineRecognizer, shortVisit } from './fixtures/run.js';
import { writeTinySenseVoiceDir } from './fixtures/tiny-sense-voice.js';
import { toSegment } from './mapping.js';

// SenseVoice through the real sherpa-onnx runtime, on a model generated at test time: low-frame-rate
// features, the four leading language/emotion/event/normalisation frames, CTC decoding, lang_id.
let base: string;

const decode = (dir: string) => decodeTones(offlineRecognizer(dir));

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sherpa-sv-'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('SenseVoice (generated model) through sherpa-onnx', () => {
  it('decodes known frames to known words, with the language the model names', async () => {
    const r = await decode(writeTinySenseVoiceDir(path.join(base, 'en')));
    expect(r).toMatchObject({ text: 'hello world', lang: '<|en|>', emotion: '<|NEUTRAL|>', event: '<|Speech|>' });
    // Timestamps count low-frame-rate frames (60 ms) after the four leading ones.
    expect(Math.abs(r.timestamps[0]! - 0.5)).toBeLessThanOrEqual(0.09);
    expect(Math.abs(r.timestamps[1]! - 1.5)).toBeLessThanOrEqual(0.09);
    const seg = toSegment(r, 0, 2600, 'xx')!;
    expect(seg.lang).toBe('en');
    expect(seg.words.map((w) => w.word)).toEqual(['hello', 'world']);
  });

  it('maps another language token onto lang', async () => {
    const r = await decode(writeTinySenseVoiceDir(path.join(base, 'zh'), '<|zh|>'));
    expect(toSegment(r, 0, 2600)!.lang).toBe('zh');
  });

  it('is found by file name and runs the final pass of a visit', async () => {
    const engine = new SherpaSpeechEngine({ modelDir: writeTinySenseVoiceDir(path.join(base, 'visit')), numThreads: 1 });
    expect(engine.model.offline.family).toBe('sense_voice');
    const d = shortVisit();
    const segs = await engine.transcribe(d.pcm);
    expect(segs).toHaveLength(2);
    for (const s of segs) {
      expect(s.lang).toBe('en');
      expect(s.words.length).toBeGreaterThan(0);
      for (const w of s.words) expect(['hello', 'world']).toContain(w.word);
    }
    await engine.close();
  });
});
