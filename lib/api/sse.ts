/**
 * A Server-Sent Events reader for fetch bodies. EventSource cannot send the service-token header the API
 * requires, so the clinician app reads the stream with fetch and parses it here (WHATWG event-stream
 * rules: events end at a blank line, `data:` lines join with newlines, `:` lines are comments).
 */
export interface SseEvent {
  event: string;
  data: string;
  /** The `retry` field, when the event carried one: how long to wait before reconnecting, in ms. */
  retry?: number;
}

/** Splits complete events off the front of `buffer`; `rest` is the unfinished tail to prepend to the next chunk. */
export function parseSseChunk(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    let retry: number | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
    }
    if (data.length) events.push(retry === undefined ? { event, data: data.join('\n') } : { event, data: data.join('\n'), retry });
  }
  return { events, rest };
}

/** Reads `body` to its end, calling `onEvent` for each event; resolves when the server ends the stream. */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (e: SseEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const parsed = parseSseChunk(buffer + decoder.decode(value, { stream: true }));
    buffer = parsed.rest;
    parsed.events.forEach(onEvent);
  }
}

/** Why the server ended a stream (its last `event: end`); `disabled` is final, the others ask for a reconnect. */
export interface SseEnd {
  reason: string;
  message?: string;
}

export interface FollowSseOptions {
  /** Opens the stream (a fresh fetch each time, so a renewed token is used). */
  open: (signal: AbortSignal) => Promise<Response>;
  onEvent: (e: SseEvent) => void;
  /** True once nothing more is wanted (a terminal status was seen): the stream is not reopened. */
  finished: () => boolean;
  /** True while a stream is up. */
  onLive?: (live: boolean) => void;
  /** Asked before a reopen after a 401: renew the token. */
  onUnauthorised?: () => Promise<void>;
  signal: AbortSignal;
  /** Wait before a reopen: `firstMs` after a stream that was up, doubling up to `maxMs` while opens keep failing. */
  backoff?: { firstMs: number; maxMs: number };
}

/** Statuses a reopen cannot change: the request itself is wrong, or the resource is not the caller's. */
const FINAL_STATUS = new Set([400, 403, 404]);

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/**
 * Follows an event stream for as long as it is wanted: the server ends streams by design (after its maximum
 * lifetime, at shutdown: issue 26), and networks drop them, so after any end that is not final it opens the
 * stream again. A stream that was up is reopened after `firstMs`; failed opens (network errors, 429, 5xx) back
 * off, doubling to `maxMs`, with jitter so many clients do not return together, and never sooner than a 429's
 * Retry-After. Stops when aborted, when `finished()`, on 400/403/404, or after an `end` with reason `disabled`.
 */
export async function followSse(opts: FollowSseOptions): Promise<void> {
  const { firstMs, maxMs } = opts.backoff ?? { firstMs: 1_000, maxMs: 30_000 };
  const { signal } = opts;
  let failures = 0;
  while (!signal.aborted && !opts.finished()) {
    let res: Response | undefined;
    try {
      res = await opts.open(signal);
    } catch {
      res = undefined;
    }
    let minWait = 0;
    if (res?.ok && res.body) {
      let end: SseEnd | undefined;
      let retryMs = 0;
      opts.onLive?.(true);
      try {
        await readSse(res.body, (e) => {
          if (e.retry !== undefined) retryMs = e.retry;
          if (e.event === 'end') {
            try {
              end = JSON.parse(e.data) as SseEnd;
            } catch {
              end = { reason: 'unknown' };
            }
          }
          opts.onEvent(e);
        });
      } catch {
        // A dropped connection: reopened like any other end.
      } finally {
        opts.onLive?.(false);
      }
      if (end?.reason === 'disabled') return;
      failures = 0;
      minWait = retryMs;
    } else {
      await res?.body?.cancel().catch(() => {});
      if (res && FINAL_STATUS.has(res.status)) return;
      if (res?.status === 401) await opts.onUnauthorised?.().catch(() => {});
      const retryAfter = Number(res?.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0) minWait = retryAfter * 1000;
      failures++;
    }
    if (signal.aborted || opts.finished()) return;
    const backoff = Math.min(maxMs, firstMs * 2 ** failures);
    await wait(Math.max(minWait, backoff * (0.5 + Math.random() * 0.5)), signal);
  }
}
