import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SherpaSpeechEngine } from './engine.js';
import { decodeTones, offlineRecognizer, shortVisit } from './fixtures/run.js';
import { writeTinyNemoTransducerDir } from './fixtures/tiny-nemo-transducer.js';
import { toSegment } from './mapping.js';

// NeMo transducers (Parakeet's encoder/decoder/joiner layout, RNNT and TDT) through the real sherpa-onnx
// runtime on models generated at test time: greedy transducer search, token posteriors, TDT durations.
let base: string;

const decode = (dir: string) => decodeTones(offlineRecognizer(dir));

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sherpa-tr-'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('NeMo transducer (generated model) through sherpa-onnx', () => {
  it('decodes known frames to known words with token posteriors as word confidence', async () => {
    const r = await decode(writeTinyNemoTransducerDir(path.join(base, 'rnnt')));
    expect(r.text).toBe('hello world');
    expect(r.timestamps.map((t) => Math.round(t * 10) / 10)).toEqual([0.5, 1.5]);
    expect(r.ys_log_probs).toHaveLength(2);
    const seg = toSegment({ ...r, logProbs: r.ys_log_probs }, 1000, 2600)!;
    expect(seg.words.map((w) => w.word)).toEqual(['hello', 'world']);
    for (const [i, w] of seg.words.entries()) expect(w.confidence).toBeCloseTo(Math.exp(r.ys_log_probs![i]!), 3);
    expect(seg.confidence).toBeGreaterThan(0.9);
    expect(seg.confidence).toBeLessThanOrEqual(1);
  });

  it('TDT: durations from the joiner end each word', async () => {
    const r = await decode(writeTinyNemoTransducerDir(path.join(base, 'tdt'), { tdt: true }));
    expect(r.text).toBe('hello world');
    expect(r.durations).toEqual([0.04, 0.04]);
    const seg = toSegment({ ...r, logProbs: r.ys_log_probs }, 0, 2600)!;
    for (const w of seg.words) expect(w.endMs - w.startMs).toBe(40);
  });

  it('runs the final pass of a visit, with confidence on every segment', async () => {
    const engine = new SherpaSpeechEngine({ modelDir: writeTinyNemoTransducerDir(path.join(base, 'visit'), { tdt: true }), numThreads: 1 });
    expect(engine.model.offline.family).toBe('nemo_transducer');
    const d = shortVisit();
    const segs = await engine.transcribe(d.pcm);
    expect(segs).toHaveLength(2);
    for (const s of segs) {
      expect(s.words.length).toBeGreaterThan(0);
      for (const w of s.words) expect(['hello', 'world']).toContain(w.word);
      expect(s.confidence).toBeGreaterThan(0);
    }
    await engine.close();
  });
});
