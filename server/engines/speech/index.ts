import os from 'node:os';
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

export function speechConfigFromEnv(env: Record<string, string | undefined> = process.env): SpeechConfig {
  const engine = (env.SPEECH_ENGINE ?? 'embedded').trim().toLowerCase();
  if (engine !== 'embedded' && engine !== 'openai' && engine !== 'none') {
    throw new Error(`SPEECH_ENGINE must be embedded, openai or none (got "${engine}")`);
  }
  const int = (v: string | undefined, name: string): number | undefined => {
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
    return n;
  };
  const lm = env.SPEECH_LM?.trim().toLowerCase();
  if (lm && lm !== 'clinical' && lm !== 'stock') throw new Error('SPEECH_LM must be clinical or stock');
  return {
    engine,
    poolSize: int(env.SPEECH_POOL_SIZE, 'SPEECH_POOL_SIZE'),
    lm: lm as SpeechConfig['lm'],
    baseUrl: env.SPEECH_BASE_URL,
    apiKey: env.SPEECH_API_KEY,
    model: env.SPEECH_MODEL,
    timeoutMs: int(env.SPEECH_TIMEOUT_MS, 'SPEECH_TIMEOUT_MS'),
    maxRetries: env.SPEECH_MAX_RETRIES === '0' ? 0 : int(env.SPEECH_MAX_RETRIES, 'SPEECH_MAX_RETRIES'),
  };
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

export function createSpeechEngine(config?: SpeechConfig): SpeechEngine {
  const c = config ?? speechConfigFromEnv();
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
