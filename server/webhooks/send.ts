import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isRetryableStatus } from './backoff';
import { bareHost, resolveWebhookTarget, WebhookTargetRefused, type ResolvedAddress, type Resolver } from './ssrf';

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  resolver?: Resolver;
}

export interface SendResult {
  /** HTTP status when the receiver answered. */
  status: number | null;
  /** Why the attempt did not succeed; null on a 2xx. */
  error: string | null;
  ok: boolean;
  retryable: boolean;
  durationMs: number;
  /** The address actually contacted. */
  address: string | null;
}

/** Enough of a receiver's error body to tell what it objected to, without storing arbitrary amounts. */
const SNIPPET_BYTES = 256;
/** Past this a receiver is streaming something that is not an acknowledgement; stop reading. */
const MAX_RESPONSE_BYTES = 64 * 1024;

function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function classify(status: number, snippet: string, location: string | undefined): Pick<SendResult, 'ok' | 'retryable' | 'error'> {
  if (status >= 200 && status < 300) return { ok: true, retryable: false, error: null };
  if (status >= 300 && status < 400) {
    return { ok: false, retryable: false, error: `HTTP ${status}: redirect${location ? ` to ${location.slice(0, 200)}` : ''} not followed; update the webhook URL` };
  }
  const detail = snippet.replace(/\s+/g, ' ').trim();
  return { ok: false, retryable: isRetryableStatus(status), error: `HTTP ${status}${detail ? `: ${detail}` : ''}` };
}

/**
 * One POST to a webhook receiver: SSRF-checked, pinned to the checked address, no redirects, bounded
 * by a single deadline that covers resolution, connection, upload and response.
 */
export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return done({ status: null, ok: false, retryable: false, error: 'webhook URL is not a valid URL', address: null });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return done({ status: null, ok: false, retryable: false, error: `webhook URL scheme ${url.protocol} is not http or https`, address: null });
  }

  let target: ResolvedAddress;
  try {
    target = await withDeadline(resolveWebhookTarget(url, { allowPrivate: req.allowPrivate, resolver: req.resolver }), req.timeoutMs, 'DNS lookup');
  } catch (err) {
    if (err instanceof WebhookTargetRefused) return done({ status: null, ok: false, retryable: false, error: err.message, address: null });
    const code = (err as NodeJS.ErrnoException).code;
    return done({ status: null, ok: false, retryable: true, error: `DNS lookup of ${bareHost(url)} failed: ${code ?? (err as Error).message}`, address: null });
  }

  const remaining = Math.max(1, req.timeoutMs - (performance.now() - started));
  const body = Buffer.from(req.body, 'utf8');
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs' | 'address'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done({ ...r, address: target.address }));
    };
    const mod = url.protocol === 'https:' ? https : http;
    const request = mod.request({
      method: 'POST',
      protocol: url.protocol,
      hostname: bareHost(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { ...req.headers, 'content-length': String(body.length) },
      // The name stays in the URL (Host header, TLS SNI and certificate check); only the address is pinned.
      lookup: pinnedLookup(target),
      // A pooled socket could be connected to an address checked for an earlier request.
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error('timeout'));
      finish({ status: null, ok: false, retryable: true, error: `timed out after ${req.timeoutMs} ms` });
    }, remaining);
    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const complete = () => {
        const snippet = Buffer.concat(chunks).toString('utf8').slice(0, SNIPPET_BYTES);
        finish({ status, ...classify(status, snippet, res.headers.location) });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (size < SNIPPET_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) complete();
      });
      res.on('end', complete);
      res.on('error', complete);
      res.on('close', complete);
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      finish({ status: null, ok: false, retryable: true, error: `request failed: ${err.code ?? err.message}` });
    });
    request.end(body);
  });
}
