import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { bareHost, OutboundTargetRefused, resolveOutboundTarget, type ResolvedAddress, type Resolver } from './outbound-address';

/**
 * The one way the server makes a request of its own (DESIGN §12 "Outbound fetches"): webhooks, partner
 * JWKS and OIDC discovery all come here. Resolve once, check every address, connect to the checked address
 * only, never follow redirects, cap the response size and bound the whole exchange by one deadline.
 */

export interface OutboundPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: lifts the address check (development and tests). */
  allowPrivate: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  resolver?: Resolver;
}

export interface OutboundRequest extends OutboundPolicy {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Names the caller in refusal messages ("webhook host …"). */
  purpose?: string;
  /** Past the size cap, keep the first bytes and stop reading instead of failing (webhook acknowledgements). */
  truncate?: boolean;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  /** The address actually contacted. */
  address: string;
}

export type OutboundFailure = 'invalid-url' | 'refused' | 'dns' | 'timeout' | 'network' | 'too-large';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
  /** A refused address or a bad URL stays so until someone changes it; the rest may pass on a later try. */
  get retryable(): boolean {
    return this.kind !== 'refused' && this.kind !== 'invalid-url' && this.kind !== 'too-large';
  }
}

function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

export async function outboundRequest(req: OutboundRequest): Promise<OutboundResponse> {
  const started = performance.now();
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new OutboundError('invalid-url', `${req.purpose ?? 'outbound'} URL is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('invalid-url', `${req.purpose ?? 'outbound'} URL scheme ${url.protocol} is not http or https`);
  }

  let target: ResolvedAddress;
  let dnsTimer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      dnsTimer = setTimeout(() => reject(new OutboundError('timeout', `timed out after ${req.timeoutMs} ms`)), req.timeoutMs);
    });
    target = await Promise.race([resolveOutboundTarget(url, { allowPrivate: req.allowPrivate, resolver: req.resolver, purpose: req.purpose }), deadline]);
  } catch (err) {
    if (err instanceof OutboundError) throw err;
    if (err instanceof OutboundTargetRefused) throw new OutboundError('refused', err.message);
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutboundError('dns', `DNS lookup of ${bareHost(url)} failed: ${code ?? (err as Error).message}`);
  } finally {
    clearTimeout(dnsTimer);
  }

  const remaining = Math.max(1, req.timeoutMs - (performance.now() - started));
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const fail = (err: OutboundError) => settle(() => reject(err));
    const mod = url.protocol === 'https:' ? https : http;
    const request = mod.request({
      method: req.method ?? 'GET',
      protocol: url.protocol,
      hostname: bareHost(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: req.body ? { ...req.headers, 'content-length': String(req.body.length) } : req.headers,
      // The name stays in the URL (Host header, TLS SNI and certificate check); only the address is pinned.
      lookup: pinnedLookup(target),
      // A pooled socket could be connected to an address checked for an earlier request.
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error('timeout'));
      fail(new OutboundError('timeout', `timed out after ${req.timeoutMs} ms`));
    }, remaining);
    const onAbort = () => {
      request.destroy(new Error('aborted'));
      fail(new OutboundError('timeout', 'aborted by the caller'));
    };
    if (req.signal?.aborted) onAbort();
    req.signal?.addEventListener('abort', onAbort);
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const complete = () => {
        settle(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated, address: target.address }));
        res.destroy();
      };
      const declared = Number(res.headers['content-length']);
      if (!req.truncate && Number.isFinite(declared) && declared > req.maxResponseBytes) {
        res.destroy();
        fail(new OutboundError('too-large', `response is larger than ${req.maxResponseBytes} bytes`));
        return;
      }
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (size + chunk.length > req.maxResponseBytes) {
          if (!req.truncate) {
            res.destroy();
            fail(new OutboundError('too-large', `response is larger than ${req.maxResponseBytes} bytes`));
            return;
          }
          chunks.push(chunk.subarray(0, req.maxResponseBytes - size));
          size = req.maxResponseBytes;
          truncated = true;
          complete();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', complete);
      res.on('error', () => fail(new OutboundError('network', 'response was cut off')));
      res.on('close', () => (res.complete ? complete() : fail(new OutboundError('network', 'response was cut off'))));
    });
    request.on('error', (err: NodeJS.ErrnoException) => fail(new OutboundError('network', `request failed: ${err.code ?? err.message}`)));
    request.end(req.body);
  });
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch() for libraries that take one (jose's JWKS loader, Auth.js's OIDC client), running every call
 * through the outbound policy. Answers are buffered (they are capped), so the Response is complete.
 */
export function policyFetch(policy: OutboundPolicy & { purpose: string }): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
    const res = await outboundRequest({
      ...policy,
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: body && body.length > 0 ? body : undefined,
      signal: init?.signal ?? undefined,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const status = res.status >= 200 && res.status <= 599 ? res.status : 502;
    return new Response(NULL_BODY.has(status) ? null : new Uint8Array(res.body), { status, headers });
  };
}
