import { isRetryableStatus } from './backoff';
import type { Resolver } from '../http/outbound-address';
import { OutboundError, outboundRequest } from '../http/outbound-request';

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

function classify(status: number, snippet: string, location: string | undefined): Pick<SendResult, 'ok' | 'retryable' | 'error'> {
  if (status >= 200 && status < 300) return { ok: true, retryable: false, error: null };
  if (status >= 300 && status < 400) {
    return { ok: false, retryable: false, error: `HTTP ${status}: redirect${location ? ` to ${location.slice(0, 200)}` : ''} not followed; update the webhook URL` };
  }
  const detail = snippet.replace(/\s+/g, ' ').trim();
  return { ok: false, retryable: isRetryableStatus(status), error: `HTTP ${status}${detail ? `: ${detail}` : ''}` };
}

/**
 * One POST to a webhook receiver through the outbound policy (server/http/outbound-request.ts):
 * address-checked, pinned to the checked address, no redirects, one deadline for the whole exchange.
 */
export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  try {
    const res = await outboundRequest({
      url: req.url,
      method: 'POST',
      headers: req.headers,
      body: Buffer.from(req.body, 'utf8'),
      timeoutMs: req.timeoutMs,
      allowPrivate: req.allowPrivate,
      resolver: req.resolver,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      truncate: true,
      purpose: 'webhook',
    });
    const snippet = res.body.subarray(0, SNIPPET_BYTES).toString('utf8');
    const location = typeof res.headers.location === 'string' ? res.headers.location : undefined;
    return done({ status: res.status, ...classify(res.status, snippet, location), address: res.address });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    return done({ status: null, ok: false, retryable: err.retryable, error: err.message, address: null });
  }
}
