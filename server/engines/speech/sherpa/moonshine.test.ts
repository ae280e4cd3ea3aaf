import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SherpaSpeechEngine } from './engine.js';
import { writeTinyMoonshineDir } from './fixtures/tiny-moonshine.js';
import { decodeTones, offlineRecognizer, shortVisit } from './fixtures/run.js';
import type { OfflineRecognizer } from './native.js';

// Moonshine through the real sherpa-onnx runtime on a model generated at test time: its own preprocessor
// on raw audio, encoder, and the autoregressive uncached/cached decoders with their cache, greedy to </s>.
let base: string;
let dir: string;
let rec: OfflineRecognizer;

const decode = async (parts: [number, number][]) => (await decodeTones(rec, parts)).text;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sherpa-moon-'));
  dir = writeTinyMoonshineDir(path.join(base, 'model'));
  rec = offlineRecognizer(dir);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('Moonshine (generated model) through sherpa-onnx', () => {
  it('decodes known audio to known token sequences and stops at </s>', async () => {
    expect(await decode([[0, 0.5], [300, 0.6], [0, 0.4], [3000, 0.6], [0, 0.5]])).toBe('hello world');
    expect(await decode([[0, 0.5], [3000, 0.6], [0, 0.5]])).toBe('world');
    expect(await decode([[300, 0.5]])).toBe('hello');
    expect(await decode([[0, 1]])).toBe('');
  });

  it('runs the final pass of a visit; words without timestamps are spread over each stretch', async () => {
    const engine = new SherpaSpeechEngine({ modelDir: dir, numThreads: 1 });
    expect(engine.model.offline.family).toBe('moonshine');
    const d = shortVisit();
    const segs = await engine.transcribe(d.pcm);
    expect(segs).toHaveLength(2);
    segs.forEach((s, i) => {
      expect(s.text).toMatch(/^(hello|world|hello world)$/);
      expect(s.startMs).toBeGreaterThanOrEqual(d.turns[i]!.startMs - 300);
      expect(s.endMs).toBeLessThanOrEqual(d.turns[i]!.endMs + 300);
      for (let k = 1; k < s.words.length; k++) expect(s.words[k]!.startMs).toBe(s.words[k - 1]!.endMs);
    });
    await engine.close();
  });
});
