import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { pcm16ToFloat, pcm16View } from '../audio.js';
import { sherpa, type VadSegment } from './native.js';
import { releaseNativeMemory } from './release-native-memory.js';
import { vadConfig, type VadSettings } from './recognizer-config.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/** Silero's window: sherpa-onnx decides speech once per call, so each call must carry one window. */
const WINDOW = 512;
/** Yielding every ten seconds of audio keeps the event loop answering while a long recording is segmented. */
const YIELD_EVERY = 10 * SAMPLE_RATE_HZ;

/**
 * Speech stretches of a whole recording (PCM16 LE) by Silero VAD, run by sherpa-onnx, each with its first
 * sample's index, yielded as found: the caller decodes one while the next is sought, and a three-hour
 * recording is never held as floats at once. Silero is the segmenter here because the offline models decode
 * what they are given: the energy VAD's stretches include breaths and room noise, which Whisper-style
 * decoders turn into words.
 */
export async function* vadStretches(pcm: Buffer, model: string, settings: VadSettings = {}): AsyncGenerator<VadSegment> {
  const { Vad } = sherpa();
  const vad = new Vad(vadConfig(model, settings), Math.max(30, (settings.maxSpeechSeconds ?? 20) * 2));
  const samples = pcm16View(pcm);
  const found: VadSegment[] = [];
  const drain = () => {
    while (!vad.isEmpty()) {
      const seg = vad.front(false);
      found.push({ start: seg.start, samples: Float32Array.from(seg.samples) });
      vad.pop();
    }
  };
  try {
    for (let o = 0; o < samples.length; o += WINDOW) {
      vad.acceptWaveform(pcm16ToFloat(samples.subarray(o, Math.min(samples.length, o + WINDOW))));
      drain();
      yield* found.splice(0);
      if (o % YIELD_EVERY < WINDOW) await yieldToLoop();
    }
    vad.flush();
    drain();
    yield* found.splice(0);
  } finally {
    releaseNativeMemory();
  }
}

/** All the stretches at once (tests, benches). */
export async function vadSegments(pcm: Buffer, model: string, settings: VadSettings = {}): Promise<VadSegment[]> {
  const out: VadSegment[] = [];
  for await (const s of vadStretches(pcm, model, settings)) out.push(s);
  return out;
}
