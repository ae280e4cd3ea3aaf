import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floatToPcm16 } from '../audio.js';
import type { SpeechSegment } from '../types.js';
import { SherpaSpeechEngine } from './engine.js';
import { tones, writeTinyNemoCtcDir } from './fixtures/tiny-nemo-ctc.js';
import { writeTinyStreamingParaformer } from './fixtures/tiny-streaming-paraformer.js';
import { writeTinyStreamingZipformer } from './fixtures/tiny-streaming-zipformer.js';

// Live partials from a streaming zipformer transducer generated at test time, through sherpa-onnx's online
// recognizer: chunked encoder with its caches, greedy search, endpoints at pauses, utterance start times.
let base: string;
let engine: SherpaSpeechEngine;
const pcm = floatToPcm16(tones([[0, 0.5], [300, 0.6], [0, 1.5], [3000, 0.6], [0, 1.5]]));

async function live(chunkBytes: number): Promise<SpeechSegment[]> {
  const out: SpeechSegment[] = [];
  const errors: Error[] = [];
  const s = engine.openStream({ onSegment: (g) => out.push(g), onError: (e) => errors.push(e) });
  for (let o = 0; o < pcm.length; o += chunkBytes) s.write(pcm.subarray(o, o + chunkBytes));
  await s.end();
  expect(errors).toEqual([]);
  return out;
}

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sherpa-stream-'));
  const dir = writeTinyNemoCtcDir(path.join(base, 'models'));
  writeTinyStreamingZipformer(dir);
  engine = new SherpaSpeechEngine({ modelDir: dir, numThreads: 1 });
});
afterAll(async () => {
  await engine?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

describe('streaming model for live partials', () => {
  it('is found in streaming/ beside the offline model and answers live streams', () => {
    expect(engine.model.streaming?.family).toBe('zipformer_transducer');
    expect(engine.liveSource).toBe('sherpa:zipformer_transducer');
  });

  it('gives partials as words arrive and a final segment at each pause, timed from the stream start', async () => {
    const segs = await live(3200);
    const finals = segs.filter((s) => s.isFinal);
    expect(finals.map((s) => s.text)).toEqual(['hello', 'world']);
    expect(Math.abs(finals[0]!.startMs - 500)).toBeLessThanOrEqual(60);
    expect(Math.abs(finals[1]!.startMs - 2600)).toBeLessThanOrEqual(60);
    for (const f of finals) expect(f.confidence).toBeGreaterThan(0.9);
    // Each final was preceded by a partial with its words, which carries no confidence.
    const firstFinal = segs.indexOf(finals[0]!);
    expect(segs.slice(0, firstFinal).some((s) => !s.isFinal && s.text === 'hello' && s.confidence === undefined)).toBe(true);
  });

  it('does not depend on how the audio was split into writes', async () => {
    const finals = (segs: SpeechSegment[]) => segs.filter((s) => s.isFinal).map((s) => ({ text: s.text, startMs: s.startMs }));
    expect(finals(await live(641))).toEqual(finals(await live(32000)));
  });

  it('leaves the final pass to the offline model', async () => {
    // Pure tones carry no speech for Silero VAD: the offline pass finds nothing, the streaming model did.
    expect(await engine.transcribe(pcm)).toEqual([]);
  });
});

describe('streaming paraformer for live partials', () => {
  it('runs through the online recognizer: one word per sound (CIF), a final at each pause, in order', async () => {
    const dir = writeTinyNemoCtcDir(path.join(base, 'paraformer'));
    writeTinyStreamingParaformer(dir);
    const para = new SherpaSpeechEngine({ modelDir: dir, numThreads: 1 });
    expect(para.liveSource).toBe('sherpa:paraformer');
    const out: SpeechSegment[] = [];
    const s = para.openStream({ onSegment: (g) => out.push(g) });
    for (let o = 0; o < pcm.length; o += 3200) s.write(pcm.subarray(o, o + 3200));
    await s.end();
    const finals = out.filter((g) => g.isFinal);
    expect(finals.map((g) => g.text)).toEqual(['hello', 'world']);
    // Paraformer gives no token times: words span their utterance, which starts where the last one ended.
    expect(finals[1]!.startMs).toBeGreaterThanOrEqual(finals[0]!.endMs);
    expect(finals[1]!.startMs).toBeLessThanOrEqual(2600);
    expect(finals[1]!.endMs).toBeGreaterThan(2600);
    expect(out.some((g) => !g.isFinal)).toBe(true);
    await para.close();
  });
});
