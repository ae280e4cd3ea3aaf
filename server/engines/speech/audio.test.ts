import { describe, expect, it } from 'vitest';
import { decodeWav, downmix, encodeWavPcm16, pcm16View, resample, SampleAligner, toPcm16Mono16k } from './audio.js';

function sine(freq: number, rate: number, seconds: number, amp = 0.5): Float32Array {
  return Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amp * Math.sin((2 * Math.PI * freq * i) / rate));
}

/** Amplitude of one frequency by correlation with a complex exponential (a single DFT bin). */
function amplitudeAt(x: Float32Array, freq: number, rate: number): number {
  let re = 0;
  let im = 0;
  // Skip the edges, where the resampler sees zero padding.
  const lo = Math.floor(x.length * 0.1);
  const hi = Math.floor(x.length * 0.9);
  for (let i = lo; i < hi; i++) {
    re += x[i]! * Math.cos((2 * Math.PI * freq * i) / rate);
    im += x[i]! * Math.sin((2 * Math.PI * freq * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / (hi - lo);
}

function peakFrequency(x: Float32Array, rate: number): number {
  let best = 0;
  let bestF = 0;
  for (let f = 50; f < rate / 2; f += 10) {
    const a = amplitudeAt(x, f, rate);
    if (a > best) [best, bestF] = [a, f];
  }
  return bestF;
}

function wavFile(rate: number, channels: Float32Array[], bits: 16 | 24 | 32, float = false): Buffer {
  const n = channels[0]!.length;
  const bytes = bits / 8;
  const data = Buffer.alloc(n * channels.length * bytes);
  let o = 0;
  for (let i = 0; i < n; i++)
    for (const ch of channels) {
      const v = ch[i]!;
      if (float) data.writeFloatLE(v, o);
      else if (bits === 16) data.writeInt16LE(Math.round(v * 32767), o);
      else if (bits === 24) data.writeIntLE(Math.round(v * 8388607), o, 3);
      else data.writeInt32LE(Math.round(v * 2147483647), o);
      o += bytes;
    }
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(float ? 3 : 1, 20);
  h.writeUInt16LE(channels.length, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * channels.length * bytes, 28);
  h.writeUInt16LE(channels.length * bytes, 32);
  h.writeUInt16LE(bits, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

describe('decodeWav', () => {
  it.each([
    [16, false],
    [24, false],
    [32, false],
    [32, true],
  ] as const)('reads %i-bit %s samples of every channel', (bits, float) => {
    const left = sine(440, 8000, 0.1);
    const right = sine(880, 8000, 0.1, 0.25);
    const a = decodeWav(wavFile(8000, [left, right], bits, float));
    expect(a.sampleRate).toBe(8000);
    expect(a.channels).toHaveLength(2);
    expect(a.channels[0]!.length).toBe(800);
    for (let i = 0; i < 800; i += 37) {
      expect(a.channels[0]![i]).toBeCloseTo(left[i]!, 3);
      expect(a.channels[1]![i]).toBeCloseTo(right[i]!, 3);
    }
  });

  it('round-trips the pipeline format', () => {
    const pcm = Buffer.alloc(3200);
    for (let i = 0; i < 1600; i++) pcm.writeInt16LE(Math.round(10000 * Math.sin(i / 5)), i * 2);
    const a = decodeWav(encodeWavPcm16(pcm));
    expect(a.sampleRate).toBe(16000);
    expect(toPcm16Mono16k(a).equals(pcm)).toBe(true);
  });

  it('rejects what is not a WAV file', () => {
    expect(() => decodeWav(Buffer.from('ID3 not a wave file at all'))).toThrow(/RIFF/);
  });
});

describe('resample', () => {
  it.each([
    [44100, 1000],
    [48000, 3000],
    [8000, 1000],
    [22050, 5000],
  ])('keeps a sine’s frequency and the duration from %i Hz to 16 kHz (%i Hz tone)', (rate, freq) => {
    const y = resample(sine(freq, rate, 1), rate, 16000);
    expect(y.length).toBe(16000);
    expect(Math.abs(peakFrequency(y, 16000) - freq)).toBeLessThanOrEqual(10);
    expect(amplitudeAt(y, freq, 16000)).toBeGreaterThan(0.45);
  });

  it('removes content above the new Nyquist frequency instead of aliasing it', () => {
    // 11 kHz at 48 kHz would alias to 5 kHz at 16 kHz without a low-pass.
    const y = resample(sine(11000, 48000, 1), 48000, 16000);
    expect(amplitudeAt(y, 5000, 16000)).toBeLessThan(0.005);
  });

  it('downmixes channels by averaging', () => {
    const m = downmix([Float32Array.from([1, 0.5]), Float32Array.from([0, -0.5])]);
    expect(Array.from(m)).toEqual([0.5, 0]);
  });

  it('converts a stereo 44.1 kHz file to mono 16 kHz PCM16', () => {
    const l = sine(1000, 44100, 0.5);
    const pcm = toPcm16Mono16k(wavFile(44100, [l, l], 16));
    expect(pcm.length).toBe(8000 * 2);
    const f = Float32Array.from(pcm16View(pcm), (v) => v / 32768);
    expect(peakFrequency(f, 16000)).toBe(1000);
  });
});

describe('SampleAligner', () => {
  it('joins a sample split across chunks and holds back an odd trailing byte', () => {
    const bytes = Buffer.alloc(8);
    [100, -200, 300, -32768].forEach((v, i) => bytes.writeInt16LE(v, i * 2));
    const a = new SampleAligner();
    expect(Array.from(a.push(bytes.subarray(0, 3)))).toEqual([100]);
    expect(Array.from(a.push(bytes.subarray(3, 4)))).toEqual([-200]);
    expect(Array.from(a.push(bytes.subarray(4, 7)))).toEqual([300]);
    expect(Array.from(a.push(bytes.subarray(7)))).toEqual([-32768]);
  });
});
