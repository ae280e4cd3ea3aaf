/** HTTP client of the OpenAI-compatible `/v1/audio/transcriptions` API: form, retries, fallback to plain json. */
import type { VadOptions } from './vad.js';

export interface OpenAISpeechOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000` (the `/v1` is added when missing). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per request. */
  timeoutMs?: number;
  /** Further attempts after the first on network errors, timeouts, 429 and 5xx. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry, with jitter. */
  retryBaseMs?: number;
  language?: string;
  /** Requests in flight per stream. */
  concurrency?: number;
  vad?: VadOptions;
}

export class TranscriptionHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface VerboseJson {
  text?: string;
  language?: string;
  segments?: { start: number; end: number; text: string; avg_logprob?: number }[];
  words?: { word: string; start: number; end: number }[];
}

const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;

function endpoint(base: string): string {
  const b = base.replace(/\/+$/, '');
  return /\/v\d+$/.test(b) ? `${b}/audio/transcriptions` : `${b}/v1/audio/transcriptions`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class TranscriptionClient {
  private readonly url: string;
  /** Some servers reject verbose_json; once seen, this client asks for plain json from then on. */
  private verbose = true;

  constructor(private readonly opts: OpenAISpeechOptions) {
    this.url = endpoint(opts.baseUrl);
  }

  async request(wav: Buffer, prompt?: string): Promise<VerboseJson> {
    const maxRetries = this.opts.maxRetries ?? 4;
    const base = this.opts.retryBaseMs ?? 500;
    for (let attempt = 0; ; attempt++) {
      const verbose = this.verbose;
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'audio.wav');
      form.append('model', this.opts.model);
      form.append('response_format', verbose ? 'verbose_json' : 'json');
      if (verbose) {
        form.append('timestamp_granularities[]', 'word');
        form.append('timestamp_granularities[]', 'segment');
      }
      if (this.opts.language) form.append('language', this.opts.language);
      if (prompt) form.append('prompt', prompt);
      let retryAfterMs = 0;
      let error: Error;
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          body: form,
          headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000),
          redirect: 'error',
        });
        if (res.ok) return (await res.json()) as VerboseJson;
        const detail = (await res.text().catch(() => '')).slice(0, 200);
        if (verbose && res.status === 400 && /response_format|verbose_json|timestamp/i.test(detail)) {
          this.verbose = false;
          attempt--;
          continue;
        }
        error = new TranscriptionHttpError(res.status, `transcription service answered ${res.status}`);
        if (!RETRYABLE(res.status)) throw error;
        const ra = Number(res.headers.get('retry-after'));
        if (Number.isFinite(ra) && ra > 0) retryAfterMs = Math.min(ra * 1000, 30_000);
      } catch (e) {
        if (e instanceof TranscriptionHttpError && !RETRYABLE(e.status)) throw e;
        error = e as Error;
        if (error.name === 'TimeoutError') error = new Error('transcription request timed out');
      }
      if (attempt >= maxRetries) throw new Error(`transcription failed after ${attempt + 1} attempts: ${error.message}`);
      const backoff = base * 2 ** attempt * (0.5 + Math.random());
      await sleep(Math.max(backoff, retryAfterMs));
    }
  }
}
