/**
 * Audio with known speech spans for the VAD bench. Turns come from the speech bench's cached ACI-BENCH
 * dialogues (bench/speech/corpus.ts) and the real read speech Debian ships; each turn is cut out, trimmed
 * to its first and last audible frame, and laid end to end with seeded gaps, so the truth is exact for
 * synthetic voices and an estimate (energy trim of a recording with its own room tone) for real speech.
 * Pauses inside a turn count as speech: a segmenter's job is to hand whole turns to the decoder.
 */
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';
import type { Recording } from '../speech/corpus.js';

export const FRAME = SAMPLE_RATE_HZ / 100; // 10 ms

export interface Span {
  start: number;
  end: number;
}

export interface Scene {
  id: string;
  pcm: Int16Array;
  turns: Span[];
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function frameDb(s: Int16Array, i: number): number {
  let e = 0;
  for (let k = i; k < i + FRAME && k < s.length; k++) e += s[k]! * s[k]!;
  return 10 * Math.log10(e / FRAME / (32768 * 32768) + 1e-12);
}

/** The audible part of a clip: frames within `rangeDb` of its loudest frame. */
export function trim(s: Int16Array, rangeDb: number): Int16Array {
  const dbs: number[] = [];
  for (let i = 0; i + FRAME <= s.length; i += FRAME) dbs.push(frameDb(s, i));
  const thr = Math.max(Math.max(...dbs) - rangeDb, -70);
  const first = dbs.findIndex((d) => d > thr);
  let last = dbs.length - 1;
  while (last > first && dbs[last]! <= thr) last--;
  return first < 0 ? new Int16Array(0) : s.slice(first * FRAME, (last + 1) * FRAME);
}

/** Gaps between turns are drawn from 0.3–2.5 s, as in conversation; short ones test merges. */
function layout(id: string, clips: Int16Array[], rand: () => number): Scene {
  const gap = () => Math.round((0.3 + 2.2 * rand()) * 100) * FRAME;
  const lead = SAMPLE_RATE_HZ;
  const lens = clips.map(() => gap());
  const total = lead + clips.reduce((a, c, i) => a + c.length + lens[i]!, 0);
  const pcm = new Int16Array(total);
  const turns: Span[] = [];
  let o = lead;
  clips.forEach((c, i) => {
    pcm.set(c, o);
    turns.push({ start: o, end: o + c.length });
    o += c.length + lens[i]!;
  });
  return { id, pcm, turns };
}

export function dialogueScene(rec: Recording, seed: number): Scene {
  const s = new Int16Array(rec.pcm.buffer, rec.pcm.byteOffset, rec.pcm.length / 2);
  const ms = (t: number) => Math.round((t * SAMPLE_RATE_HZ) / 1000);
  const clips = rec.turns!.map((t) => trim(s.slice(ms(t.startMs), ms(t.endMs)), 50)).filter((c) => c.length);
  return layout(rec.id, clips, mulberry32(seed));
}

/** Real recordings carry their own noise floor, so the trim is 35 dB below the peak rather than 50. */
export function readSpeechScene(recs: Recording[], seed: number): Scene {
  const clips = recs.map((r) => trim(new Int16Array(r.pcm.buffer, r.pcm.byteOffset, r.pcm.length / 2), 35)).filter((c) => c.length);
  return layout('read speech', clips, mulberry32(seed));
}

/**
 * Adds seeded background noise at an SNR measured against the speech frames: pink-ish noise (Kellet's
 * economy filter) with a slow swell, like ventilation and a room, plus sparse clicks like a keyboard.
 */
export function addNoise(scene: Scene, snrDb: number, seed: number): Scene {
  const rand = mulberry32(seed);
  let sp = 0;
  let n = 0;
  for (const t of scene.turns) for (let i = t.start; i < t.end; i++) (sp += scene.pcm[i]! * scene.pcm[i]!), n++;
  const speechPow = sp / Math.max(1, n);
  const noise = new Float64Array(scene.pcm.length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let np = 0;
  for (let i = 0; i < noise.length; i++) {
    const w = rand() * 2 - 1;
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    const swell = 1 + 0.4 * Math.sin((2 * Math.PI * i) / (SAMPLE_RATE_HZ * 7.3));
    const v = (b0 + b1 + b2 + w * 0.1848) * swell;
    if (rand() < 0.5 / SAMPLE_RATE_HZ) for (let k = 0; k < 80 && i + k < noise.length; k++) noise[i + k] = 6 * (rand() * 2 - 1) * Math.exp(-k / 15);
    noise[i] = (noise[i] ?? 0) + v;
    np += noise[i]! * noise[i]!;
  }
  const gain = Math.sqrt(speechPow / 10 ** (snrDb / 10) / (np / noise.length));
  const pcm = new Int16Array(scene.pcm.length);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(scene.pcm[i]! + gain * noise[i]!)));
  return { ...scene, pcm };
}
