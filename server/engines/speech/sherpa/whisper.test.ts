import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SherpaSpeechEngine } from './engine.js';
import { decodeTones, offlineRecognizer, shortVisit } from './fixtures/run.js';
import { writeTinyWhisperDir } from './fixtures/tiny-whisper.js';
import { toSegment } from './mapping.js';
import { resolveModelDir } from './model-dir.js';
import type { OfflineRecognizer } from './native.js';

// Whisper through the real sherpa-onnx runtime on a model generated at test time: Whisper's log-mel
// normalisation and 30 s padding, encoder cross-attention outputs, autoregressive decoding from
// <|startoftranscript|><|notimestamps|> to <|endoftext|>, base64 token table.
let base: string;
let dir: string;
let rec: OfflineRecognizer;

const decode = async (parts: [number, number][]) => (await decodeTones(rec, parts)).text;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sherpa-whisper-'));
  dir = writeTinyWhisperDir(path.join(base, 'model'));
  rec = offlineRecognizer(dir);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('Whisper (generated model) through sherpa-onnx', () => {
  it('decodes known audio to known token sequences and stops at <|endoftext|>', async () => {
    expect(await decode([[0, 0.5], [300, 0.6], [0, 0.4], [3000, 0.6], [0, 0.5]])).toBe('hello world');
    expect(await decode([[0, 0.5], [3000, 0.6], [0, 0.5]])).toBe('world');
    expect(await decode([[300, 0.5]])).toBe('hello');
    expect(await decode([[0, 1]])).toBe('');
  });

  it('multilingual: detects the language, which maps onto lang', async () => {
    const m = resolveModelDir(writeTinyWhisperDir(path.join(base, 'multi'), { multilingual: true }));
    expect(m.languages).toBeUndefined();
    const multi = offlineRecognizer(m.dir);
    const run = async (parts: [number, number][]) => {
      const r = await decodeTones(multi, parts);
      return { text: r.text, lang: toSegment(r, 0, 1000)?.lang };
    };
    expect(await run([[0, 0.5], [300, 0.6], [0, 0.5]])).toEqual({ text: 'hello', lang: 'en' });
    expect(await run([[0, 0.5], [3000, 0.6], [0, 0.5]])).toEqual({ text: 'world', lang: 'de' });
  });

  it('is found by its file names, English-only from .en, and runs the final pass of a visit', async () => {
    const engine = new SherpaSpeechEngine({ modelDir: dir, numThreads: 1 });
    expect(engine.model.offline.family).toBe('whisper');
    expect(engine.model.languages).toEqual(['en']);
    const d = shortVisit();
    const segs = await engine.transcribe(d.pcm);
    expect(segs).toHaveLength(2);
    segs.forEach((s, i) => {
      expect(s.text).toMatch(/^(hello|world|hello world)$/);
      expect(s.lang).toBe('en');
      expect(s.startMs).toBeGreaterThanOrEqual(d.turns[i]!.startMs - 300);
      expect(s.endMs).toBeLessThanOrEqual(d.turns[i]!.endMs + 300);
    });
    await engine.close();
  });
});
