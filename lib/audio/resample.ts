/**
 * Streaming conversion from the browser's capture format (float samples at the AudioContext rate, any
 * channel count) to what /ws/ambient takes: 16 kHz mono PCM16, 100 ms frames.
 *
 * The AudioWorklet (public/audio/pcm-worklet.js) is bundled from this code through lib/audio/pcm-worklet.ts
 * (npm run build:worklet); lib/audio/resample.test.ts runs the bundle and this module on the same input and
 * requires identical output.
 */

// The format alone, not the stream protocol's schemas: the worklet bundle would carry zod.
import { SAMPLE_RATE_HZ } from '../contracts/audio-format';

export const TARGET_RATE = SAMPLE_RATE_HZ;
/** 100 ms at 16 kHz. */
export const FRAME_SAMPLES = 1_600;

/** Averages the channels of one render quantum into one. */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  if (channels.length === 0) return new Float32Array(0);
  if (channels.length === 1) return channels[0]!;
  const n = channels[0]!.length;
  const out = new Float32Array(n);
  for (const ch of channels) for (let i = 0; i < n; i++) out[i]! += ch[i]!;
  const k = 1 / channels.length;
  for (let i = 0; i < n; i++) out[i]! *= k;
  return out;
}

/**
 * Sample-rate conversion that keeps its state between chunks, so 128-sample render quanta give the same
 * result as one long buffer. Downsampling averages the input over each output period (weighting the
 * partial samples at both ends), which is a box low-pass: speech energy above 8 kHz would otherwise fold
 * back into the band the recogniser uses. Upsampling (a capture rate below 16 kHz) interpolates linearly.
 */
export class Resampler {
  private readonly ratio: number;
  // Downsampling state: weighted sum and how much of the current output period it covers.
  private acc = 0;
  private filled = 0;
  // Upsampling state: the previous input sample and the next output position after it.
  private prev = 0;
  private havePrev = false;
  private t = 0;

  constructor(
    readonly inRate: number,
    readonly outRate: number = TARGET_RATE,
  ) {
    if (!(inRate > 0) || !(outRate > 0)) throw new RangeError('sample rates must be positive');
    this.ratio = inRate / outRate;
  }

  process(input: Float32Array): Float32Array {
    return this.ratio >= 1 ? this.down(input) : this.up(input);
  }

  private down(input: Float32Array): Float32Array {
    const r = this.ratio;
    const out = new Float32Array(Math.ceil((input.length + this.filled) / r) + 1);
    let o = 0;
    for (let i = 0; i < input.length; i++) {
      const x = input[i]!;
      const room = r - this.filled;
      if (room > 1 + 1e-9) {
        this.acc += x;
        this.filled += 1;
      } else {
        // This sample completes an output period; the part of it past the boundary starts the next one.
        this.acc += x * room;
        out[o++] = this.acc / r;
        const rest = 1 - room;
        this.acc = x * rest;
        this.filled = rest;
      }
    }
    return out.subarray(0, o);
  }

  private up(input: Float32Array): Float32Array {
    const step = this.ratio;
    const out = new Float32Array(Math.ceil((input.length + 1) / step) + 1);
    let o = 0;
    for (let i = 0; i < input.length; i++) {
      const x = input[i]!;
      if (!this.havePrev) {
        this.prev = x;
        this.havePrev = true;
        out[o++] = x;
        this.t = step;
        continue;
      }
      // Outputs fall between prev (at 0) and x (at 1).
      while (this.t <= 1 + 1e-9) {
        out[o++] = this.prev + (x - this.prev) * this.t;
        this.t += step;
      }
      this.t -= 1;
      this.prev = x;
    }
    return out.subarray(0, o);
  }
}

/** Float [-1, 1] to signed 16-bit, clamping overs. */
export function floatToPcm16(input: Float32Array): Int16Array {
  const out = new Int16Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const s = Math.max(-1, Math.min(1, input[i]!));
    out[i] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
  }
  return out;
}

/** Root-mean-square level of a chunk, 0..1, for the input meter. */
export function rms(input: Float32Array): number {
  if (input.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < input.length; i++) sum += input[i]! * input[i]!;
  return Math.sqrt(sum / input.length);
}

/** Collects PCM16 samples and hands out fixed-size frames. */
export class Framer {
  private buf: Int16Array;
  private n = 0;
  constructor(readonly frameSamples: number = FRAME_SAMPLES) {
    this.buf = new Int16Array(frameSamples);
  }
  push(samples: Int16Array): Int16Array[] {
    const frames: Int16Array[] = [];
    let i = 0;
    while (i < samples.length) {
      const take = Math.min(this.frameSamples - this.n, samples.length - i);
      this.buf.set(samples.subarray(i, i + take), this.n);
      this.n += take;
      i += take;
      if (this.n === this.frameSamples) {
        frames.push(this.buf);
        this.buf = new Int16Array(this.frameSamples);
        this.n = 0;
      }
    }
    return frames;
  }
  /** The partial frame at the end of a recording. */
  flush(): Int16Array | null {
    if (this.n === 0) return null;
    const last = this.buf.slice(0, this.n);
    this.n = 0;
    return last;
  }
}

/**
 * The whole capture path for one render quantum: channels in, finished 100 ms frames out. The worklet
 * runs exactly this sequence.
 */
export class CapturePipeline {
  private readonly resampler: Resampler;
  private readonly framer = new Framer();
  constructor(inRate: number) {
    this.resampler = new Resampler(inRate);
  }
  process(channels: readonly Float32Array[]): { frames: Int16Array[]; level: number } {
    const mono = downmix(channels);
    const frames = this.framer.push(floatToPcm16(this.resampler.process(mono)));
    return { frames, level: rms(mono) };
  }
  flush(): Int16Array | null {
    return this.framer.flush();
  }
}
