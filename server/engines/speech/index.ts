import os from 'node:os';
import { speechSettingsFromEnv, type SpeechSettings } from '../../config.js';
import { EmbeddedSpeechEngine } from './embedded.js';
import { OpenAISpeechEngine } from './openai.js';
import type { SpeechEngine, SpeechSegment, SpeechStream, SpeechStreamOptions, TranscribeOptions } from './types.js';

export type * from './types.js';
export { decodeWav, toPcm16Mono16k, encodeWavPcm16 } from './audio.js';
export { assignSpeakerRoles } from './speakers.js';
export { EmbeddedSpeechEngine } from './embedded.js';
export { OpenAISpeechEngine } from './openai.js';

export type SpeechEngineName = 'embedded' | 'openai' | 'none';

export interface SpeechConfig {
  engine?: SpeechEngineName;
  /** Decoder threads for the embedded engine. */
  poolSize?: number;
  /** Embedded language model: the project's clinical one (default when built) or Debian's stock en-us. */
  lm?: 'clinical' | 'stock';
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** Per-request timeout for the OpenAI-compatible engine. */
  timeoutMs?: number;
  maxRetries?: number;
}

/** Checks the configured settings (Config.speech); errors name the environment variable to fix. */
export function parseSpeechSettings(s: SpeechSettings): SpeechConfig {
  const engine = s.engine.trim().toLowerCase();
  if (engine !== 'embedded' && engine !== 'openai' && engine !== 'none') {
    throw new Error(`SPEECH_ENGINE must be embedded, openai or none (got "${engine}")`);
  }
  const int = (v: string | undefined, name: string): number | undefined => {
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
    return n;
  };
  const lm = s.lm?.trim().toLowerCase();
  if (lm && lm !== 'clinical' && lm !== 'stock') throw new Error('SPEECH_LM must be clinical or stock');
  return {
    engine,
    poolSize: int(s.poolSize, 'SPEECH_POOL_SIZE'),
    lm: lm as SpeechConfig['lm'],
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    model: s.model,
    timeoutMs: int(s.timeoutMs, 'SPEECH_TIMEOUT_MS'),
    maxRetries: s.maxRetries === '0' ? 0 : int(s.maxRetries, 'SPEECH_MAX_RETRIES'),
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

/** The server passes parseSpeechSettings(Config.speech) (server/services.ts); scripts build their own SpeechConfig. */
export function createSpeechEngine(c: SpeechConfig): SpeechEngine {
  switch (c.engine ?? 'embedded') {
    case 'embedded':
      return new EmbeddedSpeechEngine({ poolSize: c.poolSize ?? os.availableParallelism(), lm: c.lm });
    case 'openai':
      if (!c.baseUrl) throw new Error('SPEECH_ENGINE=openai needs SPEECH_BASE_URL');
      return new OpenAISpeechEngine({
        baseUrl: c.baseUrl,
        apiKey: c.apiKey,
        model: c.model ?? 'whisper-1',
        timeoutMs: c.timeoutMs,
        maxRetries: c.maxRetries,
      });
    case 'none':
      return new NoSpeechEngine();
  }
}
