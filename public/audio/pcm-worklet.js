/*
 * AudioWorklet: downmix the microphone to mono, resample to 16 kHz, convert to PCM16 and post 100 ms
 * frames to the page. A worklet module cannot import the app bundle, so this is a plain-JS copy of
 * lib/audio/resample.ts (CapturePipeline); lib/audio/resample.test.ts runs both on the same input and
 * requires identical frames.
 */
const TARGET_RATE = 16000;
const FRAME_SAMPLES = 1600;

function downmix(channels) {
  if (channels.length === 0) return new Float32Array(0);
  if (channels.length === 1) return channels[0];
  const n = channels[0].length;
  const out = new Float32Array(n);
  for (const ch of channels) for (let i = 0; i < n; i++) out[i] += ch[i];
  const k = 1 / channels.length;
  for (let i = 0; i < n; i++) out[i] *= k;
  return out;
}

class Resampler {
  constructor(inRate, outRate) {
    this.ratio = inRate / (outRate || TARGET_RATE);
    this.acc = 0;
    this.filled = 0;
    this.prev = 0;
    this.havePrev = false;
    this.t = 0;
  }
  process(input) {
    return this.ratio >= 1 ? this.down(input) : this.up(input);
  }
  down(input) {
    const r = this.ratio;
    const out = new Float32Array(Math.ceil((input.length + this.filled) / r) + 1);
    let o = 0;
    for (let i = 0; i < input.length; i++) {
      const x = input[i];
      const room = r - this.filled;
      if (room > 1 + 1e-9) {
        this.acc += x;
        this.filled += 1;
      } else {
        this.acc += x * room;
        out[o++] = this.acc / r;
        const rest = 1 - room;
        this.acc = x * rest;
        this.filled = rest;
      }
    }
    return out.subarray(0, o);
  }
  up(input) {
    const step = this.ratio;
    const out = new Float32Array(Math.ceil((input.length + 1) / step) + 1);
    let o = 0;
    for (let i = 0; i < input.length; i++) {
      const x = input[i];
      if (!this.havePrev) {
        this.prev = x;
        this.havePrev = true;
        out[o++] = x;
        this.t = step;
        continue;
      }
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

function floatToPcm16(input) {
  const out = new Int16Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const s = Math.max(-1, Math.min(1, input[i]));
    out[i] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
  }
  return out;
}

function rms(input) {
  if (input.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < input.length; i++) sum += input[i] * input[i];
  return Math.sqrt(sum / input.length);
}

class Framer {
  constructor(frameSamples) {
    this.frameSamples = frameSamples || FRAME_SAMPLES;
    this.buf = new Int16Array(this.frameSamples);
    this.n = 0;
  }
  push(samples) {
    const frames = [];
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
  flush() {
    if (this.n === 0) return null;
    const last = this.buf.slice(0, this.n);
    this.n = 0;
    return last;
  }
}

class CapturePipeline {
  constructor(inRate) {
    this.resampler = new Resampler(inRate, TARGET_RATE);
    this.framer = new Framer(FRAME_SAMPLES);
  }
  process(channels) {
    const mono = downmix(channels);
    const frames = this.framer.push(floatToPcm16(this.resampler.process(mono)));
    return { frames, level: rms(mono) };
  }
  flush() {
    return this.framer.flush();
  }
}

if (typeof AudioWorkletProcessor !== 'undefined') {
  class PcmCaptureProcessor extends AudioWorkletProcessor {
    constructor() {
      super();
      // sampleRate is a global of the AudioWorkletGlobalScope: the context's rate.
      this.pipeline = new CapturePipeline(sampleRate);
      this.peak = 0;
      this.port.onmessage = (e) => {
        if (e.data && e.data.type === 'flush') {
          const last = this.pipeline.flush();
          if (last) this.port.postMessage({ type: 'frame', pcm: last.buffer, level: this.peak }, [last.buffer]);
          this.port.postMessage({ type: 'flushed' });
        }
      };
    }
    process(inputs) {
      const input = inputs[0];
      if (input && input.length > 0 && input[0].length > 0) {
        const { frames, level } = this.pipeline.process(input);
        if (level > this.peak) this.peak = level;
        for (const f of frames) {
          this.port.postMessage({ type: 'frame', pcm: f.buffer, level: this.peak }, [f.buffer]);
          this.peak = 0;
        }
      }
      return true;
    }
  }
  registerProcessor('pcm-capture', PcmCaptureProcessor);
}

if (typeof module !== 'undefined' && module.exports) {
  module.exports = { CapturePipeline, Resampler, Framer, downmix, floatToPcm16, rms, TARGET_RATE, FRAME_SAMPLES };
}
