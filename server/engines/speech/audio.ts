/** WAV decoding, downmix and resampling to the pipeline's one format: PCM16 LE, mono, 16 kHz. */
import { wavHeader } from '../../../lib/audio/wav';
import { SAMPLE_RATE_HZ } from '../../../lib/contracts/stream-protocol';

export const TARGET_RATE = SAMPLE_RATE_HZ;

export interface DecodedAudio {
  sampleRate: number;
  /** One Float32Array per channel, samples in [-1, 1]. */
  channels: Float32Array[];
}

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

/** Decodes a RIFF/WAVE file: integer PCM of 8/16/24/32 bits and IEEE float of 32/64 bits, any channel count. */
export function decodeWav(buf: Buffer | Uint8Array): DecodedAudio {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 12 || b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let pos = 12;
  let format = 0;
  let channels = 0;
  let sampleRate = 0;
  let bits = 0;
  let data: Buffer | null = null;
  while (pos + 8 <= b.length) {
    const id = b.toString('ascii', pos, pos + 4);
    let size = b.readUInt32LE(pos + 4);
    const body = pos + 8;
    // Streaming writers (sox to a pipe, browsers) leave the data size as 0 or 0xffffffff: take the rest.
    if (id === 'data' && (size === 0 || size === 0xffffffff || body + size > b.length)) size = b.length - body;
    if (id === 'fmt ') {
      format = b.readUInt16LE(body);
      channels = b.readUInt16LE(body + 2);
      sampleRate = b.readUInt32LE(body + 4);
      bits = b.readUInt16LE(body + 14);
      if (format === FORMAT_EXTENSIBLE && size >= 26) format = b.readUInt16LE(body + 24);
    } else if (id === 'data') {
      data = b.subarray(body, body + size);
    }
    pos = body + size + (size & 1);
  }
  if (!format || !data) throw new Error('WAV file lacks a fmt or data chunk');
  if (channels < 1 || sampleRate < 1) throw new Error('WAV file has an invalid fmt chunk');
  const bytes = bits / 8;
  if (!((format === FORMAT_PCM && [1, 2, 3, 4].includes(bytes)) || (format === FORMAT_FLOAT && [4, 8].includes(bytes)))) {
    throw new Error(`unsupported WAV encoding (format ${format}, ${bits} bits)`);
  }
  const frames = Math.floor(data.length / (bytes * channels));
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  let o = 0;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++, o += bytes) {
      let v: number;
      if (format === FORMAT_FLOAT) v = bytes === 4 ? data.readFloatLE(o) : data.readDoubleLE(o);
      else if (bytes === 1) v = (data[o]! - 128) / 128;
      else if (bytes === 2) v = data.readInt16LE(o) / 32768;
      else if (bytes === 3) v = data.readIntLE(o, 3) / 8388608;
      else v = data.readInt32LE(o) / 2147483648;
      out[c]![i] = v;
    }
  }
  return { sampleRate, channels: out };
}

/** Encodes PCM16 LE mono (the pipeline format) as a WAV file, for uploads and debugging. */
export function encodeWavPcm16(pcm: Buffer, sampleRate = TARGET_RATE, channels = 1): Buffer {
  return Buffer.concat([wavHeader(pcm.length, sampleRate, channels), pcm]);
}

export function downmix(channels: Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0]!;
  const n = channels[0]!.length;
  const out = new Float32Array(n);
  for (const ch of channels) for (let i = 0; i < n; i++) out[i]! += ch[i]!;
  const k = 1 / channels.length;
  for (let i = 0; i < n; i++) out[i]! *= k;
  return out;
}

/**
 * Band-limited resampling by windowed-sinc interpolation (Blackman window). When downsampling the
 * kernel's cutoff moves to the output Nyquist frequency so that content above it is removed rather than
 * aliased into the speech band.
 */
export function resample(input: Float32Array, fromRate: number, toRate: number, zeroCrossings = 16): Float32Array {
  if (fromRate === toRate) return input;
  const ratio = toRate / fromRate;
  const outLen = Math.round(input.length * ratio);
  const out = new Float32Array(outLen);
  // Slightly below Nyquist so the window's transition band sits under it.
  const cutoff = Math.min(1, ratio) * 0.95;
  const halfWidth = zeroCrossings / cutoff;
  const step = 1 / ratio;
  for (let n = 0; n < outLen; n++) {
    const t = n * step;
    const lo = Math.max(0, Math.ceil(t - halfWidth));
    const hi = Math.min(input.length - 1, Math.floor(t + halfWidth));
    let acc = 0;
    let norm = 0;
    for (let k = lo; k <= hi; k++) {
      const x = t - k;
      const xc = x * cutoff;
      const sinc = xc === 0 ? 1 : Math.sin(Math.PI * xc) / (Math.PI * xc);
      const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / halfWidth) + 0.08 * Math.cos((2 * Math.PI * x) / halfWidth);
      const h = sinc * w;
      acc += input[k]! * h;
      norm += h;
    }
    // Normalising by the kernel sum keeps DC gain at exactly 1, including near the edges.
    out[n] = norm !== 0 ? acc / norm : 0;
  }
  return out;
}

export function floatToPcm16(x: Float32Array): Buffer {
  const out = Buffer.alloc(x.length * 2);
  for (let i = 0; i < x.length; i++) {
    const v = Math.max(-1, Math.min(1, x[i]!));
    out.writeInt16LE(Math.round(v < 0 ? v * 32768 : v * 32767), i * 2);
  }
  return out;
}

export function pcm16ToFloat(pcm: Buffer | Int16Array): Float32Array {
  const s = pcm instanceof Int16Array ? pcm : pcm16View(pcm);
  const out = new Float32Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s[i]! / 32768;
  return out;
}

/** Int16 view of a PCM16 LE buffer (copies only when the buffer is not 2-byte aligned). */
export function pcm16View(pcm: Buffer): Int16Array {
  const n = pcm.length >> 1;
  if (pcm.byteOffset % 2 === 0) return new Int16Array(pcm.buffer, pcm.byteOffset, n);
  const copy = new Int16Array(n);
  for (let i = 0; i < n; i++) copy[i] = pcm.readInt16LE(i * 2);
  return copy;
}

/** Converts decoded audio (or a WAV file's bytes) of any rate and channel count to PCM16 LE mono 16 kHz. */
export function toPcm16Mono16k(audio: DecodedAudio | Buffer | Uint8Array): Buffer {
  const a = audio instanceof Uint8Array ? decodeWav(audio) : audio;
  return floatToPcm16(resample(downmix(a.channels), a.sampleRate, TARGET_RATE));
}

export function pcmDurationMs(pcm: Buffer, sampleRate = TARGET_RATE): number {
  return ((pcm.length >> 1) * 1000) / sampleRate;
}

/**
 * Turns PCM16 byte chunks split at arbitrary points (network frames) into whole samples: an odd trailing
 * byte is held back and joined to the next chunk.
 */
export class SampleAligner {
  private carry: Buffer | null = null;

  push(pcm: Buffer): Int16Array {
    let buf = pcm;
    if (this.carry) {
      buf = Buffer.concat([this.carry, pcm]);
      this.carry = null;
    }
    if (buf.length & 1) {
      this.carry = Buffer.from(buf.subarray(buf.length - 1));
      buf = buf.subarray(0, buf.length - 1);
    }
    return Int16Array.from(pcm16View(buf));
  }
}
