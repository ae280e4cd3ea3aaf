import os from 'node:os';
import { speechSettingsFromEnv, type SpeechSettings } from '../../config.js';
import { EmbeddedSpeechEngine } from './embedded.js';
import { OpenAISpeechEngine } from './openai.js';
import { segmenterFactory, type SpeechVad } from './silero-segmenter.js';
import { SherpaSpeechEngine } from './sherpa/engine.js';
import type { SpeechEngine, SpeechSegment, SpeechStream, SpeechStreamOptions, TranscribeOptions } from './types.js';

export type * from './types.js';
export { decodeWav, toPcm16Mono16k, encodeWavPcm16 } from './audio.js';
export { assignSpeakerRoles } from './speakers.js';
export { EmbeddedSpeechEngine } from './embedded.js';
export { OpenAISpeechEngine } from './openai.js';
export { SherpaSpeechEngine } from './sherpa/engine.js';

export type SpeechEngineName = 'embedded' | 'openai' | 'sherpa' | 'none';
const ENGINE_NAMES: SpeechEngineName[] = ['embedded', 'openai', 'sherpa', 'none'];

export interface SpeechConfig {
  engine?: SpeechEngineName;
  /** Decoder threads for the embedded engine. */
  poolSize?: number;
  /** Embedded language model: the project's clinical one (default when built) or Debian's stock en-us. */
  lm?: 'lean' | 'clinical' | 'stock';
  /** The embedded engine's segmenter (live stream and final pass alike). */
  vad?: SpeechVad;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** Per-request timeout for the OpenAI-compatible engine. */
  timeoutMs?: number;
  maxRetries?: number;
  /** The sherpa engine's model directory (model.json, or sherpa-onnx's archive file names). */
  modelDir?: string;
  /** ONNX Runtime threads per decode of the sherpa engine. */
  threads?: number;
}

/** Checks the configured settings (Config.speech); errors name the environment variable to fix. */
export function parseSpeechSettings(s: SpeechSettings): SpeechConfig {
  const engine = s.engine.trim().toLowerCase();
  if (!ENGINE_NAMES.includes(engine as SpeechEngineName)) {
    throw new Error(`SPEECH_ENGINE must be embedded, openai, sherpa or none (got "${engine}")`);
  }
  const int = (v: string | undefined, name: string): number | undefined => {
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
    return n;
  };
  const lm = s.lm?.trim().toLowerCase();
  if (lm && lm !== 'lean' && lm !== 'clinical' && lm !== 'stock') throw new Error(`SPEECH_LM must be lean, clinical or stock (got "${s.lm}")`);
  const vad = s.vad?.trim().toLowerCase();
  if (vad && vad !== 'silero' && vad !== 'energy') throw new Error(`SPEECH_VAD must be silero or energy (got "${s.vad}")`);
  return {
    engine: engine as SpeechEngineName,
    poolSize: int(s.poolSize, 'SPEECH_POOL_SIZE'),
    lm: lm as SpeechConfig['lm'],
    ...(vad ? { vad: vad as SpeechVad } : {}),
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    model: s.model,
    timeoutMs: int(s.timeoutMs, 'SPEECH_TIMEOUT_MS'),
    maxRetries: s.maxRetries === '0' ? 0 : int(s.maxRetries, 'SPEECH_MAX_RETRIES'),
    modelDir: s.modelDir,
    threads: int(s.threads, 'SPEECH_THREADS'),
  };
}

/** For scripts and benches, which have no Config: the same settings read from the environment they pass. */
export function speechConfigFromEnv(env: Record<string, string | undefined>): SpeechConfig {
  return parseSpeechSettings(speechSettingsFromEnv(env));
}

/** Recognises nothing: for deployments that take transcripts from elsewhere, and for tests of the rest. */
export class NoSpeechEngine implements SpeechEngine {
  readonly name = 'none';
  openStream(_options: SpeechStreamOptions): SpeechStream {
    return { write() {}, end: async () => {}, close() {} };
  }
  async transcribe(_pcm: Buffer, _options?: TranscribeOptions): Promise<SpeechSegment[]> {
    return [];
  }
  async close(): Promise<void> {}
}

/** The embedded engine these settings describe: the engine itself, and the sherpa engine's live fallback. */
const embeddedEngine = (c: SpeechConfig) =>
  new EmbeddedSpeechEngine({ poolSize: c.poolSize ?? os.availableParallelism(), lm: c.lm, ...(c.vad ? { segmenter: segmenterFactory(c.vad) } : {}) });

/** The server passes parseSpeechSettings(Config.speech) (server/services.ts); scripts build their own SpeechConfig. */
export function createSpeechEngine(c: SpeechConfig): SpeechEngine {
  switch (c.engine ?? 'embedded') {
    case 'embedded':
      return embeddedEngine(c);
    case 'openai':
      if (!c.baseUrl) throw new Error('SPEECH_ENGINE=openai needs SPEECH_BASE_URL');
      return new OpenAISpeechEngine({
        baseUrl: c.baseUrl,
        apiKey: c.apiKey,
        model: c.model ?? 'whisper-1',
        timeoutMs: c.timeoutMs,
        maxRetries: c.maxRetries,
      });
    case 'sherpa':
      if (!c.modelDir) throw new Error('SPEECH_ENGINE=sherpa needs SPEECH_MODEL_DIR');
      return new SherpaSpeechEngine({
        modelDir: c.modelDir,
        numThreads: c.threads ?? Math.min(4, os.availableParallelism()),
        // Live partials without a streaming model come from the embedded engine; the final pass is neural.
        live: () => embeddedEngine(c),
      });
    case 'none':
      return new NoSpeechEngine();
  }
}

/**
 * Engines whose settings name files that must be right before the service takes visits: the composition
 * root builds these at start-up rather than on first use (sherpa: a bad model directory).
 */
export function speechEngineBuildsAtStart(s: SpeechSettings): boolean {
  return s.engine.trim().toLowerCase() === 'sherpa';
}
