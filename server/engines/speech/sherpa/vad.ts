import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { sherpa, type VadSegment } from './native.js';
import { vadConfig, type VadSettings } from './recognizer-config.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/** Silero's window: sherpa-onnx decides speech once per call, so each call must carry one window. */
const WINDOW = 512;
/** Yielding every ten seconds of audio keeps the event loop answering while a long recording is segmented. */
const YIELD_EVERY = 10 * SAMPLE_RATE_HZ;

/**
 * Speech stretches of a whole recording by Silero VAD (run by sherpa-onnx), in order, each with its first
 * sample's index. Silero is the segmenter here because the offline models decode what they are given: the
 * energy VAD's stretches include breaths and room noise, which Whisper-style decoders turn into words.
 */
export async function vadSegments(samples: Float32Array, model: string, settings: VadSettings = {}): Promise<VadSegment[]> {
  const { Vad } = sherpa();
  const vad = new Vad(vadConfig(model, settings), Math.max(30, (settings.maxSpeechSeconds ?? 20) * 2));
  const out: VadSegment[] = [];
  const drain = () => {
    while (!vad.isEmpty()) {
      const seg = vad.front(false);
      out.push({ start: seg.start, samples: Float32Array.from(seg.samples) });
      vad.pop();
    }
  };
  for (let o = 0; o < samples.length; o += WINDOW) {
    vad.acceptWaveform(samples.subarray(o, Math.min(samples.length, o + WINDOW)));
    drain();
    if (o % YIELD_EVERY < WINDOW) await yieldToLoop();
  }
  vad.flush();
  drain();
  return out;
}
