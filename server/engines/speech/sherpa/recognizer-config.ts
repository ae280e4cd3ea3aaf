import type { ModelDir } from './model-dir.js';
import type { RecognizerConfig } from './native.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/** sherpa-onnx's OfflineRecognizerConfig for the directory's offline model. */
export function offlineRecognizerConfig(m: ModelDir['offline'], numThreads: number): RecognizerConfig {
  const f = m.files;
  const byFamily: Record<typeof m.family, RecognizerConfig> = {
    nemo_ctc: { nemoCtc: { model: f.model } },
    // Inverse text normalisation writes numbers as digits, as a scribe would.
    sense_voice: { senseVoice: { model: f.model, language: m.language ?? '', useInverseTextNormalization: 1 } },
    whisper: { whisper: { encoder: f.encoder, decoder: f.decoder, language: m.language ?? '', task: 'transcribe', tailPaddings: -1 } },
    moonshine: { moonshine: { preprocessor: f.preprocessor, encoder: f.encoder, uncachedDecoder: f.uncachedDecoder, cachedDecoder: f.cachedDecoder } },
    nemo_transducer: { transducer: { encoder: f.encoder, decoder: f.decoder, joiner: f.joiner }, modelType: 'nemo_transducer' },
  };
  return {
    featConfig: { sampleRate: SAMPLE_RATE_HZ, featureDim: 80 },
    modelConfig: { ...byFamily[m.family], tokens: m.tokens, numThreads, provider: 'cpu', debug: 0 },
    decodingMethod: 'greedy_search',
  };
}

/** sherpa-onnx's OnlineRecognizerConfig for the directory's streaming model, with endpointing for final segments. */
export function onlineRecognizerConfig(m: NonNullable<ModelDir['streaming']>, numThreads: number): RecognizerConfig {
  const f = m.files;
  const model =
    m.family === 'zipformer_transducer'
      ? { transducer: { encoder: f.encoder, decoder: f.decoder, joiner: f.joiner } }
      : { paraformer: { encoder: f.encoder, decoder: f.decoder } };
  return {
    featConfig: { sampleRate: SAMPLE_RATE_HZ, featureDim: 80 },
    modelConfig: { ...model, tokens: m.tokens, numThreads, provider: 'cpu', debug: 0 },
    decodingMethod: 'greedy_search',
    enableEndpoint: 1,
    // The same pause that ends a segment in the embedded engine (vad.ts: 600 ms).
    rule1MinTrailingSilence: 2.4,
    rule2MinTrailingSilence: 0.6,
    rule3MinUtteranceLength: 20,
  };
}

export interface VadSettings {
  threshold?: number;
  minSilenceSeconds?: number;
  minSpeechSeconds?: number;
  maxSpeechSeconds?: number;
}

/**
 * Silero VAD as the segmenter of the offline model: segments end at pauses of 0.5 s and are cut at 20 s,
 * which keeps each decode short (attention cost grows with the square of its length) and Whisper inside
 * its 30 s window.
 */
export function vadConfig(model: string, s: VadSettings = {}): RecognizerConfig {
  return {
    sileroVad: {
      model,
      threshold: s.threshold ?? 0.5,
      minSilenceDuration: s.minSilenceSeconds ?? 0.5,
      minSpeechDuration: s.minSpeechSeconds ?? 0.25,
      maxSpeechDuration: s.maxSpeechSeconds ?? 20,
      windowSize: 512,
    },
    sampleRate: SAMPLE_RATE_HZ,
    numThreads: 1,
    provider: 'cpu',
    debug: 0,
  };
}
