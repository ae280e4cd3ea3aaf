import { beforeAll, describe, expect, it } from 'vitest';
import { pcm16View } from './audio.js';
import { shippedSileroVad } from './sherpa/model-dir.js';
import { vadSegments } from './sherpa/vad.js';
import { SileroSegmenter, type SileroOptions } from './silero-segmenter.js';
import { hasSynthTools, synthesize } from './synth.js';
import type { Segmenter, VadEvent } from './vad.js';

const RATE = 16000;
const TURNS = [
  'The patient reports chest pain for three days, worse on exertion.',
  'No shortness of breath.',
  'We will start lisinopril ten milligrams daily, and recheck in two weeks.',
  'Any allergies to medication?',
];
const GAPS_MS = [1000, 1400, 900, 2000, 1200];

interface Scene {
  pcm: Int16Array;
  turns: { start: number; end: number }[];
}

/** Known spans: each turn's first to last audible sample (espeak pads with digital silence). */
function scene(): Scene {
  const clips = TURNS.map((t) => {
    const s = Int16Array.from(pcm16View(synthesize(t, 'en-us')));
    let a = 0;
    let b = s.length;
    while (a < b && Math.abs(s[a]!) < 100) a++;
    while (b > a && Math.abs(s[b - 1]!) < 100) b--;
    return s.slice(a, b);
  });
  const total = clips.reduce((n, c) => n + c.length, 0) + (GAPS_MS.reduce((n, g) => n + g, 0) * RATE) / 1000;
  const pcm = new Int16Array(total);
  const turns: Scene['turns'] = [];
  let o = (GAPS_MS[0]! * RATE) / 1000;
  clips.forEach((c, i) => {
    pcm.set(c, o);
    turns.push({ start: o, end: o + c.length });
    o += c.length + (GAPS_MS[i + 1]! * RATE) / 1000;
  });
  return { pcm, turns };
}

/** White noise at the given SNR over the speech's mean power, seeded. */
function withNoise(s: Scene, snrDb: number): Scene {
  let p = 0;
  let n = 0;
  for (const t of s.turns) for (let i = t.start; i < t.end; i++, n++) p += s.pcm[i]! * s.pcm[i]!;
  const sigma = Math.sqrt(p / n / 10 ** (snrDb / 10));
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const out = new Int16Array(s.pcm.length);
  for (let i = 0; i < out.length; i++) {
    // Box-Muller: Gaussian white noise.
    const g = Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    out[i] = Math.max(-32768, Math.min(32767, Math.round(s.pcm[i]! + sigma * g)));
  }
  return { pcm: out, turns: s.turns };
}

interface Seg {
  start: number;
  end: number;
  audio: Int16Array;
}

function run(v: Segmenter, pcm: Int16Array, chunk: number): { segs: Seg[]; events: VadEvent[] } {
  const events: VadEvent[] = [];
  for (let o = 0; o < pcm.length; o += chunk) events.push(...v.push(pcm.subarray(o, Math.min(pcm.length, o + chunk))));
  events.push(...v.flush());
  const segs: Seg[] = [];
  let cur: { start: number; parts: Int16Array[] } | null = null;
  for (const e of events) {
    if (e.type === 'start') cur = { start: e.startSample, parts: [] };
    else if (e.type === 'audio') cur!.parts.push(e.samples);
    else {
      const audio = new Int16Array(cur!.parts.reduce((n, p) => n + p.length, 0));
      let o = 0;
      for (const p of cur!.parts) {
        audio.set(p, o);
        o += p.length;
      }
      segs.push({ start: cur!.start, end: e.endSample, audio });
      cur = null;
    }
  }
  return { segs, events };
}

const silero = (o: SileroOptions = {}) => new SileroSegmenter(o);
const spans = (segs: Seg[]) => segs.map((s) => [s.start, s.end]);
/** Segments that overlap a turn by more than 50 ms. */
const hits = (t: { start: number; end: number }, segs: Seg[]) => segs.filter((s) => Math.min(s.end, t.end) - Math.max(s.start, t.start) > 800);

describe.skipIf(!hasSynthTools())('SileroSegmenter', () => {
  let clean: Scene;
  beforeAll(() => {
    clean = scene();
  }, 60_000);

  it('gives the same segments whatever the write size, each sample passed on exactly once', () => {
    const ref = run(silero(), clean.pcm, 1600).segs;
    expect(ref.length).toBe(TURNS.length);
    for (const chunk of [1, 333, 512, 32000, clean.pcm.length]) expect(spans(run(silero(), clean.pcm, chunk).segs)).toEqual(spans(ref));
    for (const s of ref) {
      expect(s.audio.length).toBe(s.end - s.start);
      expect(s.audio).toEqual(clean.pcm.slice(s.start, s.end));
    }
  });

  it('reports exactly the sample indices of sherpa-onnx own segments, plus pre- and post-roll', async () => {
    const own = await vadSegments(Buffer.from(clean.pcm.buffer, clean.pcm.byteOffset, clean.pcm.byteLength), shippedSileroVad(), { maxSpeechSeconds: 15 });
    const exact = run(silero({ prerollMs: 0, postrollMs: 0 }), clean.pcm, 1600).segs;
    expect(spans(exact)).toEqual(own.map((s) => [s.start, s.start + s.samples.length]));
    const rolled = run(silero({ prerollMs: 200, postrollMs: 100 }), clean.pcm, 1600).segs;
    expect(spans(rolled)).toEqual(own.map((s) => [s.start - 3200, s.start + s.samples.length + 1600]));
  });

  it('gives a fresh detector\'s segments on a pooled one that was flushed or released mid-speech', async () => {
    const own = await vadSegments(Buffer.from(clean.pcm.buffer, clean.pcm.byteOffset, clean.pcm.byteLength), shippedSileroVad(), { maxSpeechSeconds: 15 });
    for (let i = 0; i < 4; i++) {
      const v = silero({ prerollMs: 0, postrollMs: 0 });
      v.push(clean.pcm.subarray(0, clean.turns[1]!.start + 8000));
      expect(v.speaking).toBe(true);
      if (i % 2) v.release();
      else v.flush();
      expect(() => v.push(clean.pcm.subarray(0, 512))).toThrow('already flushed');
    }
    const again = run(silero({ prerollMs: 0, postrollMs: 0 }), clean.pcm, 1600).segs;
    expect(spans(again)).toEqual(own.map((s) => [s.start, s.start + s.samples.length]));
  });

  it('covers each known speech span with one segment that starts before it and ends just after it', () => {
    const { segs } = run(silero(), clean.pcm, 1600);
    clean.turns.forEach((t) => {
      const h = hits(t, segs);
      expect(h).toHaveLength(1);
      // Onset with the preroll reaches before the first audible sample; the end sits within 50 ms of speech + postroll.
      expect(h[0]!.start).toBeLessThanOrEqual(t.start);
      expect(h[0]!.start).toBeGreaterThan(t.start - 0.6 * RATE);
      expect(h[0]!.end).toBeGreaterThanOrEqual(t.end - 0.05 * RATE);
      expect(h[0]!.end).toBeLessThanOrEqual(t.end + 0.4 * RATE);
    });
  });

  it('keeps each turn in one segment in white noise at 10 dB SNR', () => {
    const noisy = withNoise(clean, 10);
    const { segs } = run(silero(), noisy.pcm, 1600);
    expect(segs).toHaveLength(TURNS.length);
    for (const t of noisy.turns) expect(hits(t, segs)).toHaveLength(1);
    expect(spans(run(silero(), noisy.pcm, 333).segs)).toEqual(spans(segs));
  });

  it('cuts a long stretch of speech at maxSegmentMs into contiguous segments', () => {
    // Four turns back to back with 200 ms gaps: one utterance of about 12 s.
    const clips = clean.turns.map((t) => clean.pcm.slice(t.start, t.end));
    const gap = 0.2 * RATE;
    const pcm = new Int16Array(clips.reduce((n, c) => n + c.length + gap, RATE));
    let o = RATE / 2;
    for (const c of clips) {
      pcm.set(c, o);
      o += c.length + gap;
    }
    const { segs } = run(silero({ maxSegmentMs: 3000 }), pcm, 1600);
    expect(segs.length).toBeGreaterThanOrEqual(3);
    for (const s of segs) expect(s.end - s.start).toBeLessThanOrEqual(3 * RATE);
    for (let i = 1; i < segs.length; i++) expect(segs[i]!.start).toBeGreaterThanOrEqual(segs[i - 1]!.end);
    expect(spans(run(silero({ maxSegmentMs: 3000 }), pcm, 777).segs)).toEqual(spans(segs));
  });

  it('passes audio on while a turn is still being spoken, and ends an open segment on flush', () => {
    const t = clean.turns[0]!;
    const v = silero();
    const mid = t.start + Math.floor((t.end - t.start) / 2);
    const events = v.push(clean.pcm.subarray(0, mid));
    expect(v.speaking).toBe(true);
    expect(events.filter((e) => e.type === 'audio').length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'end')).toBe(false);
    const tail = v.flush();
    expect(tail.at(-1)).toMatchObject({ type: 'end', endSample: mid });
    expect(v.speaking).toBe(false);
  });
});
