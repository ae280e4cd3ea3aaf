import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CapturePipeline, Framer, Resampler, downmix, floatToPcm16, FRAME_SAMPLES } from './resample';

const sine = (freq: number, rate: number, n: number, amp = 0.5, phase0 = 0) =>
  Float32Array.from({ length: n }, (_, i) => amp * Math.sin(2 * Math.PI * freq * ((i + phase0) / rate)));

/** Feeds a signal through in 128-sample render quanta, the way an AudioWorklet sees it. */
function inQuanta(r: Resampler, signal: Float32Array): Float32Array {
  const parts: number[] = [];
  for (let i = 0; i < signal.length; i += 128) parts.push(...r.process(signal.subarray(i, i + 128)));
  return Float32Array.from(parts);
}

function amplitudeAt(signal: Float32Array, freq: number, rate: number): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < signal.length; i++) {
    re += signal[i]! * Math.cos((2 * Math.PI * freq * i) / rate);
    im += signal[i]! * Math.sin((2 * Math.PI * freq * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / signal.length;
}

describe('Resampler', () => {
  it.each([48_000, 44_100, 96_000, 22_050, 16_000, 8_000])('produces 16 kHz output of the right length from %i Hz', (rate) => {
    const out = inQuanta(new Resampler(rate), new Float32Array(rate)); // one second
    expect(Math.abs(out.length - 16_000)).toBeLessThanOrEqual(1);
  });

  it('gives the same output whether fed in render quanta or in one buffer', () => {
    const x = sine(440, 44_100, 44_100);
    const whole = new Resampler(44_100).process(x);
    const chunked = inQuanta(new Resampler(44_100), x);
    expect(chunked.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(chunked[i]).toBeCloseTo(whole[i]!, 5);
  });

  it('keeps a speech-band tone at its frequency and level when downsampling 48 kHz', () => {
    const out = inQuanta(new Resampler(48_000), sine(1000, 48_000, 48_000));
    // A 3-sample box filter passes 1 kHz almost unchanged.
    expect(amplitudeAt(out, 1000, 16_000)).toBeGreaterThan(0.48);
    expect(amplitudeAt(out, 1000, 16_000)).toBeLessThan(0.51);
    // Samples match the ideal 16 kHz sine averaged over each input period.
    const ideal = sine(1000, 16_000, out.length, 0.5, 1 / 3);
    for (let i = 10; i < 200; i++) expect(Math.abs(out[i]! - ideal[i]!)).toBeLessThan(0.02);
  });

  it('attenuates a tone above the new Nyquist instead of folding it in at full level', () => {
    // 15 kHz aliases to 1 kHz at 16 kHz; the averaging keeps most of it out.
    const out = inQuanta(new Resampler(48_000), sine(15_000, 48_000, 48_000));
    expect(amplitudeAt(out, 1000, 16_000)).toBeLessThan(0.05);
  });

  it('interpolates when the capture rate is below 16 kHz', () => {
    const out = inQuanta(new Resampler(8_000), sine(500, 8_000, 8_000));
    expect(amplitudeAt(out, 500, 16_000)).toBeGreaterThan(0.47);
    expect(out[1]).toBeCloseTo((0 + 0.5 * Math.sin((2 * Math.PI * 500) / 8000)) / 2, 5);
  });

  it('passes 16 kHz through unchanged', () => {
    const x = sine(300, 16_000, 1000);
    const out = inQuanta(new Resampler(16_000), x);
    expect(Array.from(out)).toEqual(Array.from(x));
  });
});

describe('PCM16, downmix and framing', () => {
  it('converts and clamps', () => {
    expect(Array.from(floatToPcm16(Float32Array.from([0, 1, -1, 2, -2, 0.5])))).toEqual([0, 32767, -32768, 32767, -32768, 16384]);
  });

  it('averages channels', () => {
    expect(Array.from(downmix([Float32Array.from([1, 0]), Float32Array.from([0, 0.5])]))).toEqual([0.5, 0.25]);
  });

  it('emits 100 ms frames and keeps the remainder for flush', () => {
    const f = new Framer();
    expect(f.push(new Int16Array(1000))).toHaveLength(0);
    expect(f.push(new Int16Array(2500)).map((x) => x.length)).toEqual([1600, 1600]);
    expect(f.flush()!.length).toBe(300);
    expect(f.flush()).toBeNull();
  });
});

describe('the AudioWorklet copy', () => {
  const code = fs.readFileSync(path.resolve(import.meta.dirname, '../../public/audio/pcm-worklet.js'), 'utf8');
  const sandbox = { module: { exports: {} as Record<string, any> }, Float32Array, Int16Array, Math };
  vm.runInNewContext(code, sandbox);
  const worklet = sandbox.module.exports;

  it.each([48_000, 44_100, 8_000])('produces exactly the frames lib/audio/resample.ts does at %i Hz', (rate) => {
    const left = sine(440, rate, rate * 2, 0.7);
    const right = sine(1700, rate, rate * 2, 0.4);
    const ts = new CapturePipeline(rate);
    const js = new worklet.CapturePipeline(rate);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < left.length; i += 128) {
      const q = [left.subarray(i, i + 128), right.subarray(i, i + 128)];
      const r1 = ts.process(q);
      const r2 = js.process(q);
      for (const f of r1.frames) a.push(...f);
      for (const f of r2.frames) b.push(...f);
      expect(r2.level).toBeCloseTo(r1.level, 10);
    }
    for (const f of [ts.flush()]) if (f) a.push(...f);
    for (const f of [js.flush()]) if (f) b.push(...f);
    expect(a.length).toBeGreaterThan(2 * FRAME_SAMPLES);
    expect(b).toEqual(a);
  });
});
