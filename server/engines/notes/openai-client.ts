/**
 * HTTP client of an OpenAI-compatible `/chat/completions` API (OpenAI, Ollama, llama.cpp's server, vLLM):
 * a bound per attempt, a process-wide bound on requests in flight, and retries with backoff and jitter on
 * 429, 5xx, network errors and answers the caller cannot use.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { z } from 'zod';

export interface ChatClientOptions {
  /** e.g. `http://127.0.0.1:11434/v1` (the `/v1` is added when missing). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** One attempt's bound. */
  timeoutMs?: number;
  /** Further attempts after the first. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry, with jitter. */
  retryBaseMs?: number;
  /** Requests in flight at once through this client; more wait their turn. */
  concurrency?: number;
}

/** The model could not be used: unreachable, refusing, or answering what cannot be used. Our words only. */
export class NotesModelError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
  ) {
    super(message);
  }
}

/** An answer the caller could not use (malformed or cut-off JSON, wrong shape); worth one more attempt. */
export class UnusableAnswer extends Error {}

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }), finish_reason: z.string().nullable().optional() })).min(1),
});

export interface ChatAnswer {
  content: string;
  /** `length` when the model stopped at its token limit: the JSON is then cut off. */
  finishReason: string | null;
}

const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function endpoint(base: string): string {
  const root = base.replace(/\/+$/, '');
  return /\/v\d+$/.test(root) ? `${root}/chat/completions` : `${root}/v1/chat/completions`;
}

/** A network error as the operator would name it (ECONNREFUSED, ENOTFOUND, a timeout), never a body. */
function describeNetworkError(err: Error, timeoutMs: number): string {
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `did not answer within ${timeoutMs} ms (NOTES_TIMEOUT_MS)`;
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  return `could not be reached (${cause?.code ?? cause?.message ?? err.message})`;
}

export class ChatClient {
  private readonly url: string;
  private readonly limit: LimitFunction;

  constructor(private readonly opts: ChatClientOptions) {
    this.url = endpoint(opts.baseUrl);
    this.limit = pLimit(Math.max(1, opts.concurrency ?? 2));
  }

  /**
   * Posts one chat request and hands the answer to `use`; a retryable status, a network error or an
   * `UnusableAnswer` thrown by `use` is tried again after a backoff (at least the server's Retry-After).
   * Throws NotesModelError once the attempts are spent or on a status that retrying cannot fix.
   */
  async complete<T>(body: Record<string, unknown>, use: (answer: ChatAnswer) => T): Promise<T> {
    const maxRetries = Math.max(0, this.opts.maxRetries ?? 2);
    const base = this.opts.retryBaseMs ?? 500;
    let last = '';
    for (let attempt = 0; ; attempt++) {
      let retryAfterMs = 0;
      const outcome = await this.limit(async (): Promise<{ value: T } | { retry: string } | { fatal: string }> => {
        let res: Response;
        const timeoutMs = this.opts.timeoutMs ?? 120_000;
        try {
          res = await fetch(this.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
            body: JSON.stringify({ model: this.opts.model, ...body }),
            signal: AbortSignal.timeout(timeoutMs),
            redirect: 'error',
          });
        } catch (err) {
          return { retry: describeNetworkError(err as Error, timeoutMs) };
        }
        if (!res.ok) {
          await res.body?.cancel().catch(() => undefined);
          const retryAfterSeconds = Number(res.headers.get('retry-after'));
          if (Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0) retryAfterMs = Math.min(retryAfterSeconds * 1000, 30_000);
          return RETRYABLE(res.status) ? { retry: `answered HTTP ${res.status}` } : { fatal: `answered HTTP ${res.status}` };
        }
        let answer: ChatAnswer;
        try {
          const parsed = ChatCompletion.parse(await res.json());
          answer = { content: parsed.choices[0].message.content ?? '', finishReason: parsed.choices[0].finish_reason ?? null };
        } catch (err) {
          const error = err as Error;
          return { retry: error.name === 'TimeoutError' || error.name === 'AbortError' ? describeNetworkError(error, timeoutMs) : 'answered something that is not a chat completion' };
        }
        try {
          return { value: use(answer) };
        } catch (err) {
          if (err instanceof UnusableAnswer) return { retry: err.message };
          throw err;
        }
      });
      if ('value' in outcome) return outcome.value;
      const reason = 'fatal' in outcome ? outcome.fatal : outcome.retry;
      last = reason;
      if ('fatal' in outcome || attempt >= maxRetries) {
        throw new NotesModelError(`the notes model (NOTES_BASE_URL, model ${this.opts.model}) ${last} after ${attempt + 1} attempt${attempt ? 's' : ''}`, attempt + 1);
      }
      await sleep(Math.max(base * 2 ** attempt * (0.5 + Math.random()), retryAfterMs));
    }
  }
}
