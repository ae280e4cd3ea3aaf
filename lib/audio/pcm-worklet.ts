/**
 * The AudioWorklet module (public/audio/pcm-worklet.js, bundled from this file by
 * scripts/audio/build-worklet.ts): downmix the microphone to mono, resample to 16 kHz, convert to PCM16 and
 * post 100 ms frames to the page, with lib/audio/resample.ts's CapturePipeline itself. A worklet module
 * cannot import the app bundle, so it gets its own.
 */
import { CapturePipeline, downmix, FRAME_SAMPLES, Framer, floatToPcm16, Resampler, rms, TARGET_RATE } from './resample';

/** The parts of the AudioWorkletGlobalScope used here (TypeScript's DOM library does not describe it). */
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;

if (typeof AudioWorkletProcessor !== 'undefined') {
  class PcmCaptureProcessor extends AudioWorkletProcessor {
    // sampleRate is a global of the AudioWorkletGlobalScope: the context's rate.
    private readonly pipeline = new CapturePipeline(sampleRate);
    private peak = 0;

    constructor() {
      super();
      this.port.onmessage = (e: MessageEvent<{ type?: string } | null>) => {
        if (e.data?.type !== 'flush') return;
        const last = this.pipeline.flush();
        if (last) this.port.postMessage({ type: 'frame', pcm: last.buffer, level: this.peak }, [last.buffer]);
        this.port.postMessage({ type: 'flushed' });
      };
    }

    process(inputs: Float32Array[][]): boolean {
      const input = inputs[0];
      if (input && input.length > 0 && input[0]!.length > 0) {
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

// For lib/audio/resample.test.ts, which runs the bundle in a sandbox and compares it with the module.
export { CapturePipeline, downmix, FRAME_SAMPLES, Framer, floatToPcm16, Resampler, rms, TARGET_RATE };
