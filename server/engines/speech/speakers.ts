import FFT from 'fft.js';
import { pcm16View } from './audio.js';
import type { SpeakerRole, SpeechSegment } from './types.js';
import { timeStageCpu } from './stage-cpu.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/**
 * Speaker roles without a speaker model: segments are clustered into two voices by pitch and spectral
 * shape, then each voice is named by what it says (clinicians ask and order, patients report).
 */

const RATE = SAMPLE_RATE_HZ;
const WIN = 512; // 32 ms
const HOP = 320; // 20 ms
const BANDS = 20;
const CEPS = 10;

const CLINICIAN_CUES: RegExp[] = [
  /\bhow (are|have) you\b/, /\bhow('s| is| was) (your|the|that|it)\b/, /\bhow (long|often|much|many|old)\b/,
  /\b(do|did|does|have|are|were|is|can|could|would) you\b/, /\bany (pain|fever|chills|nausea|vomiting|shortness|chest|problems|questions|changes|other|allergies)\b/,
  /\b(i'm|i am) going to\b/, /\bi('d| would) like (you|to)\b/, /\bi want you to\b/, /\bgo ahead and\b/, /\blet's\b/,
  /\b(prescribe|prescription|refill|order|refer|referral|recommend|follow up|follow-up)\b/, /\b(exam|examine|examination|on exam)\b/,
  /\byour (blood|labs?|results|x-ray|mri|ct|ekg|echo|pressure|medication|symptoms|heart|lungs)\b/,
  /\b(milligrams|mg|twice a day|once a day|daily)\b/, /\btake a (deep )?breath\b/, /\b(assessment|plan|diagnosis|impression)\b/,
  /\bwhat brings you\b/, /\btell me\b/, /\bokay so\b/, /\bwe('ll| will| can)\b/, /\bnice to (meet|see) you\b/,
];
const PATIENT_CUES: RegExp[] = [
  /\bmy (knee|back|neck|head|chest|stomach|leg|arm|foot|feet|hand|shoulder|hip|throat|ear|eyes?|wife|husband|son|daughter|mom|mother|dad|father|kids?)\b/,
  /\b(i've|i have) (been|had|got|noticed)\b/, /\bi (feel|felt|get|got|noticed|think|guess)\b/, /\b(hurts?|hurting|sore|aching)\b/,
  /\bi (take|took|was taking)\b/, /\bi don't (know|remember|think)\b/, /\b(yes|yeah|yep|no|nope|mm-hmm|uh-huh|okay|sure)\b$/,
  /\bit (started|was|feels|gets)\b/, /\bthank you\b/, /\bdoctor\b/, /\bi (can't|couldn't|didn't)\b/, /\bsince\b/,
];

/** Positive: sounds like the clinician; negative: like the patient. */
export function textCueScore(text: string): number {
  const t = text.toLowerCase();
  let s = 0;
  for (const r of CLINICIAN_CUES) if (r.test(t)) s++;
  for (const r of PATIENT_CUES) if (r.test(t)) s--;
  return s;
}

const fft = new FFT(WIN);
const hann = Float64Array.from({ length: WIN }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (WIN - 1)));
const melEdges = (() => {
  const mel = (f: number) => 2595 * Math.log10(1 + f / 700);
  const inv = (m: number) => 700 * (10 ** (m / 2595) - 1);
  const lo = mel(80);
  const hi = mel(7600);
  return Array.from({ length: BANDS + 2 }, (_, i) => Math.round((inv(lo + ((hi - lo) * i) / (BANDS + 1)) * WIN) / RATE));
})();

/** Each mel band's triangle over the FFT bins, and the DCT's cosines: the same for every frame, so computed once. */
const melWeights = Array.from({ length: BANDS }, (_, i) => {
  const [l, c, r] = [melEdges[i]!, melEdges[i + 1]!, melEdges[i + 2]!];
  const weights = Float64Array.from({ length: r - l + 1 }, (_, j) => {
    const k = l + j;
    return k <= c ? (k - l + 1) / (c - l + 1) : (r - k + 1) / (r - c + 1);
  });
  return { from: l, weights };
});
const dctCos = Array.from({ length: CEPS }, (_, i) => Float64Array.from({ length: BANDS }, (_, b) => Math.cos((Math.PI * (i + 1) * (b + 0.5)) / BANDS)));

const ACF_SIZE = 2 * WIN;
const acfFft = new FFT(ACF_SIZE);
const acfIn = new Float64Array(ACF_SIZE);
const acfSpectrum = acfFft.createComplexArray();
const acfPower = new Float64Array(ACF_SIZE);
const acfOut = acfFft.createComplexArray();

/**
 * Σ x[i]·x[i+lag] for every lag, through the power spectrum (Wiener–Khinchin) of the frame padded to twice its
 * length so no lag wraps round: 2 FFTs instead of a sum per lag, which made pitch most of the speaker roles' CPU.
 */
export function autocorrelation(frame: Float64Array): Float64Array {
  acfIn.fill(0);
  acfIn.set(frame);
  acfFft.realTransform(acfSpectrum, acfIn);
  acfFft.completeSpectrum(acfSpectrum);
  for (let k = 0; k < ACF_SIZE; k++) acfPower[k] = acfSpectrum[2 * k]! ** 2 + acfSpectrum[2 * k + 1]! ** 2;
  // The power spectrum is real and even, so its forward transform is its inverse times the size.
  acfFft.realTransform(acfOut, acfPower);
  const out = new Float64Array(frame.length);
  for (let lag = 0; lag < frame.length; lag++) out[lag] = acfOut[2 * lag]! / ACF_SIZE;
  return out;
}

/**
 * Pitch by normalised autocorrelation over 70–350 Hz; null for unvoiced frames. The frame is centre-clipped
 * first (Sondhi): a low voice's first formant rings with a period of 2–4 ms, which otherwise correlates
 * better than the pitch period and reads a 90 Hz voice as 200–350 Hz, i.e. as the other speaker. Only a
 * local maximum counts, so a correlation still falling at the range's edge is not taken for a pitch.
 */
function pitch(raw: Float64Array): number | null {
  const minLag = Math.floor(RATE / 350);
  const maxLag = Math.floor(RATE / 70);
  let peak = 0;
  for (let i = 0; i < raw.length; i++) peak = Math.max(peak, Math.abs(raw[i]!));
  const clip = 0.3 * peak;
  const frame = raw.map((v) => (v > clip ? v - clip : v < -clip ? v + clip : 0));
  let e0 = 0;
  for (let i = 0; i < frame.length; i++) e0 += frame[i]! * frame[i]!;
  if (e0 <= 0) return null;
  const c = autocorrelation(frame);
  // Energy of the frame from each lag on: the second factor of each lag's normalisation.
  const tail = new Float64Array(frame.length + 1);
  for (let i = frame.length - 1; i >= 0; i--) tail[i] = tail[i + 1]! + frame[i]! * frame[i]!;
  const r = new Float64Array(maxLag + 2);
  for (let lag = minLag - 1; lag <= maxLag + 1; lag++) r[lag] = c[lag]! / Math.sqrt(e0 * tail[lag]! + 1e-9);
  let best = 0;
  let bestLag = 0;
  for (let lag = minLag; lag <= maxLag; lag++) {
    if (r[lag]! > best && r[lag]! >= r[lag - 1]! && r[lag]! >= r[lag + 1]!) {
      best = r[lag]!;
      bestLag = lag;
    }
  }
  return best > 0.6 ? RATE / bestLag : null;
}

/** Per-segment voice features: median log-pitch and mean cepstrum of the louder frames. */
export function voiceFeatures(samples: Int16Array): number[] | null {
  const frames: { energy: number; ceps: number[]; f0: number | null }[] = [];
  const out = fft.createComplexArray();
  const buf = new Float64Array(WIN);
  const power = new Float64Array(WIN / 2 + 1);
  const logBands = new Float64Array(BANDS);
  for (let o = 0; o + WIN <= samples.length; o += HOP) {
    let energy = 0;
    for (let i = 0; i < WIN; i++) {
      const v = samples[o + i]! / 32768;
      buf[i] = v * hann[i]!;
      energy += v * v;
    }
    fft.realTransform(out, buf);
    for (let k = 0; k <= WIN / 2; k++) power[k] = out[2 * k]! ** 2 + out[2 * k + 1]! ** 2;
    for (let b = 0; b < BANDS; b++) {
      let s = 0;
      const { from, weights } = melWeights[b]!;
      for (let j = 0; j < weights.length; j++) s += power[from + j]! * weights[j]!;
      logBands[b] = Math.log(s + 1e-10);
    }
    const ceps: number[] = [];
    for (let q = 1; q <= CEPS; q++) {
      let s = 0;
      const cos = dctCos[q - 1]!;
      for (let b = 0; b < BANDS; b++) s += logBands[b]! * cos[b]!;
      ceps.push(s / BANDS);
    }
    frames.push({ energy, ceps, f0: null });
  }
  if (frames.length < 3) return null;
  // Only the louder half of frames carries the voice; pauses and breath would pull both speakers together.
  const sorted = frames.map((f) => f.energy).sort((a, b) => a - b);
  const thr = sorted[Math.floor(sorted.length / 2)]!;
  const loud = frames.filter((f) => f.energy >= thr && f.energy > 1e-6);
  if (!loud.length) return null;
  const f0s: number[] = [];
  for (let o = 0, i = 0; o + WIN <= samples.length; o += HOP, i++) {
    if (frames[i]!.energy < thr || frames[i]!.energy <= 1e-6) continue;
    const fr = new Float64Array(WIN);
    for (let j = 0; j < WIN; j++) fr[j] = samples[o + j]! / 32768;
    const p = pitch(fr);
    if (p) f0s.push(Math.log(p));
  }
  f0s.sort((a, b) => a - b);
  const f0 = f0s.length ? f0s[Math.floor(f0s.length / 2)]! : NaN;
  const mean = Array.from({ length: CEPS }, (_, q) => loud.reduce((a, f) => a + f.ceps[q]!, 0) / loud.length);
  return [f0, ...mean];
}

function kmeans2(x: number[][]): { labels: number[]; separation: number } {
  const d2 = (a: number[], b: number[]) => a.reduce((s, v, i) => s + (v - b[i]!) ** 2, 0);
  // Farthest-pair seeding: deterministic and robust for two well-separated voices.
  let c0 = x[0]!;
  let c1 = x.reduce((best, p) => (d2(p, c0) > d2(best, c0) ? p : best), x[0]!);
  c0 = x.reduce((best, p) => (d2(p, c1) > d2(best, c1) ? p : best), x[0]!);
  let labels = x.map(() => 0);
  for (let it = 0; it < 50; it++) {
    const next = x.map((p) => (d2(p, c0) <= d2(p, c1) ? 0 : 1));
    const same = next.every((l, i) => l === labels[i]);
    labels = next;
    const mean = (k: number) => {
      const m = x.filter((_, i) => labels[i] === k);
      return m.length ? m[0]!.map((_, j) => m.reduce((a, p) => a + p[j]!, 0) / m.length) : k === 0 ? c0 : c1;
    };
    c0 = mean(0);
    c1 = mean(1);
    if (same && it > 0) break;
  }
  const within = x.reduce((a, p, i) => a + d2(p, labels[i] === 0 ? c0 : c1), 0) / x.length;
  return { labels, separation: d2(c0, c1) / (within + 1e-9) };
}

export interface SpeakerOptions {
  /** Below this centroid-distance to spread ratio the two clusters are not trusted to be two voices. */
  minSeparation?: number;
}

/**
 * Tags each final segment CLINICIAN, PATIENT or UNKNOWN. `pcm` is the session's audio (PCM16 LE mono
 * 16 kHz) that the segments' offsets refer to. Returns new segment objects in the same order.
 */
export function assignSpeakerRoles(segments: SpeechSegment[], pcm: Buffer, opts: SpeakerOptions = {}): SpeechSegment[] {
  return timeStageCpu('speaker_roles', () => assignRoles(segments, pcm, opts));
}

function assignRoles(segments: SpeechSegment[], pcm: Buffer, opts: SpeakerOptions): SpeechSegment[] {
  if (!segments.length) return [];
  const all = pcm16View(pcm);
  const feats = segments.map((s) => {
    const a = Math.max(0, Math.floor((s.startMs * RATE) / 1000));
    const b = Math.min(all.length, Math.ceil((s.endMs * RATE) / 1000));
    return b > a ? voiceFeatures(all.subarray(a, b)) : null;
  });
  return assignRolesFromFeatures(segments, feats, opts);
}

/**
 * The same roles from voice features already computed per segment (`voiceFeatures`, null where a segment
 * has no usable audio): the live pass computes each segment's once and re-clusters as segments arrive.
 */
export function assignRolesFromFeatures(segments: SpeechSegment[], feats: (number[] | null)[], opts: SpeakerOptions = {}): SpeechSegment[] {
  feats = feats.map((f) => (f ? [...f] : null));
  const cues = segments.map((s) => textCueScore(s.text));
  const idx = feats.map((f, i) => (f ? i : -1)).filter((i) => i >= 0);

  let labels: (number | null)[] = segments.map(() => null);
  let trusted = false;
  if (idx.length >= 2) {
    const rows = idx.map((i) => feats[i]!);
    const dims = rows[0]!.length;
    // Missing pitch (whispered or unvoiced segment) takes the mean so it does not decide the cluster.
    for (let j = 0; j < dims; j++) {
      const vals = rows.map((r) => r[j]!).filter((v) => Number.isFinite(v));
      const m = vals.length ? vals.reduce((a, v) => a + v, 0) / vals.length : 0;
      const sd = Math.sqrt(vals.reduce((a, v) => a + (v - m) ** 2, 0) / Math.max(1, vals.length)) || 1;
      // Pitch is the most speaker-specific cue, so it weighs as much as the whole cepstrum.
      const w = j === 0 ? Math.sqrt(dims - 1) : 1;
      for (const r of rows) r[j] = Number.isFinite(r[j]!) ? (w * (r[j]! - m)) / sd : 0;
    }
    const { labels: l, separation } = kmeans2(rows);
    trusted = separation >= (opts.minSeparation ?? 1.5) && new Set(l).size === 2;
    if (trusted) idx.forEach((i, k) => (labels[i] = l[k]!));
  }

  if (!trusted) {
    return segments.map((s, i) => ({ ...s, speaker: cues[i]! > 0 ? 'CLINICIAN' : cues[i]! < 0 ? 'PATIENT' : 'UNKNOWN' }));
  }
  // The clinician usually opens the visit: a small prior that only decides when the words do not.
  const score = [0, 0];
  labels.forEach((l, i) => l !== null && (score[l]! += cues[i]!));
  const first = labels.find((l) => l !== null);
  if (first !== undefined && first !== null) score[first]! += 0.5;
  const clinician = score[0]! >= score[1]! ? 0 : 1;
  return segments.map((s, i) => {
    const l = labels[i];
    const speaker: SpeakerRole =
      l === null || l === undefined ? (cues[i]! > 0 ? 'CLINICIAN' : cues[i]! < 0 ? 'PATIENT' : 'UNKNOWN') : l === clinician ? 'CLINICIAN' : 'PATIENT';
    return { ...s, speaker };
  });
}
