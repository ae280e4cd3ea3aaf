import { encodeWavPcm16, SampleAligner } from './audio.js';
import type { SpeechBias, SpeechEngine, SpeechSegment, SpeechStream, SpeechStreamOptions, TranscribeOptions, WordTiming } from './types.js';
import { VadSegmenter, type VadOptions } from './vad.js';

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

interface VerboseJson {
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

/**
 * Client of the OpenAI-compatible `/v1/audio/transcriptions` API (OpenAI, Groq, self-hosted whisper
 * servers such as faster-whisper-server or whisper.cpp's server). That API is not streaming, so a live
 * stream is cut into chunks at pauses and each chunk is sent as soon as it completes.
 */
export class OpenAISpeechEngine implements SpeechEngine {
  readonly name = 'openai';
  private readonly url: string;
  /** Some servers reject verbose_json; once seen, this engine asks for plain json from then on. */
  private verbose = true;

  constructor(readonly opts: OpenAISpeechOptions) {
    this.url = endpoint(opts.baseUrl);
  }

  /** Transcribes one chunk of PCM16 mono 16 kHz; times in the result are offset by offsetMs. */
  async transcribeChunk(pcm: Buffer, offsetMs = 0, prompt?: string): Promise<SpeechSegment[]> {
    const wav = encodeWavPcm16(pcm);
    const durationMs = ((pcm.length >> 1) * 1000) / 16000;
    const body = await this.request(wav, prompt);
    return toSegments(body, offsetMs, durationMs, this.opts.language);
  }

  private async request(wav: Buffer, prompt?: string): Promise<VerboseJson> {
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

  openStream(options: SpeechStreamOptions): SpeechStream {
    return new ChunkedStream(this, options);
  }

  async transcribe(pcm: Buffer, options: TranscribeOptions = {}): Promise<SpeechSegment[]> {
    const out: SpeechSegment[] = [];
    let err: Error | null = null;
    const s = this.openStream({ onSegment: (seg) => out.push(seg), onError: (e) => (err ??= e), bias: options.bias });
    s.write(pcm);
    await s.end();
    if (err) throw err;
    return out;
  }

  async close(): Promise<void> {}
}

class ChunkedStream implements SpeechStream {
  private readonly vad: VadSegmenter;
  private current: Int16Array[] = [];
  private currentStart = 0;
  /** Results are emitted in audio order even when a later chunk's request finishes first. */
  private chain: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  private closed = false;
  private readonly aligner = new SampleAligner();
  private readonly prompt: string | undefined;

  constructor(
    private readonly engine: OpenAISpeechEngine,
    private readonly options: SpeechStreamOptions,
  ) {
    this.prompt = biasPrompt(options.bias);
    // Whisper-style models decode 30 s windows; longer chunks would be cut by the server.
    this.vad = new VadSegmenter({ pauseMs: 700, maxSegmentMs: 28_000, ...engine.opts.vad });
  }

  write(pcm: Buffer): void {
    if (this.closed) throw new Error('speech stream is closed');
    this.route(this.vad.push(this.aligner.push(pcm)));
  }

  private route(events: ReturnType<VadSegmenter['push']>): void {
    for (const e of events) {
      if (e.type === 'start') {
        this.current = [];
        this.currentStart = e.startSample;
      } else if (e.type === 'audio') this.current.push(e.samples);
      else {
        const chunk = this.current;
        this.current = [];
        if (e.voicedMs >= this.vad.minSpeechMs) this.submit(chunk, (this.currentStart * 1000) / 16000);
      }
    }
  }

  private submit(chunk: Int16Array[], offsetMs: number): void {
    const n = chunk.reduce((a, c) => a + c.length, 0);
    const pcm = Buffer.alloc(n * 2);
    let o = 0;
    for (const c of chunk) {
      pcm.set(new Uint8Array(c.buffer, c.byteOffset, c.byteLength), o);
      o += c.byteLength;
    }
    const result = this.slot().then(() =>
      this.engine.transcribeChunk(pcm, offsetMs, this.prompt).finally(() => {
        this.inFlight--;
        this.waiters.shift()?.();
      }),
    );
    result.catch(() => {});
    this.chain = this.chain.then(async () => {
      try {
        const segs = await result;
        if (!this.closed) for (const s of segs) this.options.onSegment(s);
      } catch (e) {
        if (!this.closed) this.options.onError?.(e as Error);
      }
    });
  }

  private async slot(): Promise<void> {
    const limit = this.engine.opts.concurrency ?? 2;
    while (this.inFlight >= limit) await new Promise<void>((r) => this.waiters.push(r));
    this.inFlight++;
  }

  async end(): Promise<void> {
    if (this.closed) return;
    this.route(this.vad.flush());
    await this.chain;
    this.closed = true;
  }

  close(): void {
    this.closed = true;
  }
}

/**
 * A session's context as the transcription `prompt`, which Whisper-style models read as preceding text:
 * spelling the visit's terms there makes the model prefer them. Kept under ~200 tokens, the prompt window.
 */
export function biasPrompt(bias: SpeechBias | undefined): string | undefined {
  if (!bias) return undefined;
  const terms = [...new Set(bias.terms.map((t) => t.trim()).filter(Boolean))];
  if (!terms.length && !bias.text?.trim()) return undefined;
  let prompt = terms.length ? `Clinic visit. ${terms.join(', ')}.` : 'Clinic visit.';
  if (bias.text?.trim()) prompt += ` ${bias.text.trim().replace(/\s+/g, ' ')}`;
  return prompt.length > 800 ? prompt.slice(0, 800).replace(/\s\S*$/, '') : prompt;
}

/** exp(avg_logprob) of a segment, in [0, 1], or undefined when the server gave none. */
function logprobConfidence(avg: number | undefined): number | undefined {
  if (typeof avg !== 'number' || !Number.isFinite(avg)) return undefined;
  return Math.round(Math.min(1, Math.max(0, Math.exp(avg))) * 1000) / 1000;
}

/** Maps an OpenAI transcription response to final segments with absolute times. */
export function toSegments(body: VerboseJson, offsetMs: number, durationMs: number, lang?: string): SpeechSegment[] {
  const ms = (s: number) => Math.round(offsetMs + s * 1000);
  const words: WordTiming[] = (body.words ?? [])
    .map((w) => ({ word: w.word.trim(), startMs: ms(w.start), endMs: ms(w.end) }))
    .filter((w) => w.word);
  const language = body.language ? normaliseLang(body.language) : lang;
  if (body.segments?.length) {
    return body.segments
      .filter((s) => s.text.trim())
      .map((s) => {
        const startMs = ms(s.start);
        const endMs = ms(s.end);
        const inSeg = words.filter((w) => w.startMs >= startMs - 50 && w.startMs < endMs);
        const confidence = logprobConfidence(s.avg_logprob);
        // The API scores segments, not words: each word carries its segment's confidence.
        const segWords = (inSeg.length ? inSeg : spread(s.text, startMs, endMs)).map((w) => (confidence !== undefined ? { ...w, confidence } : w));
        return {
          text: s.text.trim(),
          startMs,
          endMs,
          isFinal: true,
          words: segWords,
          ...(confidence !== undefined ? { confidence } : {}),
          ...(language ? { lang: language } : {}),
        };
      });
  }
  const text = (body.text ?? '').trim();
  if (!text) return [];
  const startMs = words[0]?.startMs ?? Math.round(offsetMs);
  const endMs = words.at(-1)?.endMs ?? Math.round(offsetMs + durationMs);
  return [
    {
      text,
      startMs,
      endMs,
      isFinal: true,
      words: words.length ? words : spread(text, startMs, endMs),
      ...(language ? { lang: language } : {}),
    },
  ];
}

/**
 * Plain `json` responses carry no timings; word times are spread by character length so that playback
 * highlighting and speaker attribution still have something proportionate to work with.
 */
function spread(text: string, startMs: number, endMs: number): WordTiming[] {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const total = tokens.reduce((a, t) => a + t.length + 1, 0);
  let t = startMs;
  return tokens.map((word) => {
    const d = ((endMs - startMs) * (word.length + 1)) / total;
    const w = { word, startMs: Math.round(t), endMs: Math.round(t + d) };
    t += d;
    return w;
  });
}

const LANGS: Record<string, string> = { english: 'en', spanish: 'es', french: 'fr', german: 'de' };
function normaliseLang(l: string): string {
  const k = l.toLowerCase();
  return LANGS[k] ?? k;
}
