import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { policyFetch, type OutboundPolicy } from '../http/outbound-request';

/**
 * One key resolver per JWKS source. jose's remote set caches the document and refetches it when a token
 * names a kid it has not seen (rate-limited by its cooldown), which is the refresh rule trust needs.
 */
export interface PartnerKeyCache {
  forUri(uri: string): JWTVerifyGetKey;
  forInline(jwks: JSONWebKeySet): JWTVerifyGetKey;
  clear(): void;
}

/** A JWKS document is a few keys; anything near this is not one. */
export const JWKS_MAX_BYTES = 256 * 1024;

/**
 * Every way a JWKS fetch can fail (address refused, DNS, closed or hanging port, non-200, oversize, not
 * JSON) becomes this one error, so a login's answer cannot be used to map what the URI points at.
 */
export class JwksFetchFailed extends Error {
  readonly code = 'ERR_JWKS_FETCH_FAILED';
  constructor(readonly reason: string) {
    super('partner JWKS could not be fetched');
  }
}

export interface PartnerKeyOptions {
  cooldownMs?: number;
  cacheMaxAgeMs?: number;
  timeoutMs?: number;
  /** WEBHOOK_ALLOW_PRIVATE: the outbound address check is lifted for JWKS URIs too. */
  allowPrivate?: boolean;
  /** Told why a fetch failed (for the operator's log); the caller only ever sees JwksFetchFailed. */
  onFetchError?: (uri: string, reason: string) => void;
}

export function createPartnerKeyCache(opts: PartnerKeyOptions = {}): PartnerKeyCache {
  const remote = new Map<string, JWTVerifyGetKey>();
  const inline = new Map<string, JWTVerifyGetKey>();
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const policy: OutboundPolicy & { purpose: string } = {
    allowPrivate: opts.allowPrivate ?? false,
    timeoutMs,
    maxResponseBytes: JWKS_MAX_BYTES,
    purpose: 'JWKS',
  };
  const fetchThroughPolicy = policyFetch(policy);
  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const uri = String(input instanceof Request ? input.url : input);
    let res: Response;
    try {
      res = await fetchThroughPolicy(input, init);
    } catch (err) {
      opts.onFetchError?.(uri, (err as Error).message);
      throw new JwksFetchFailed((err as Error).message);
    }
    if (res.status !== 200) {
      opts.onFetchError?.(uri, `HTTP ${res.status}`);
      throw new JwksFetchFailed(`HTTP ${res.status}`);
    }
    const text = await res.text();
    try {
      const doc = JSON.parse(text) as { keys?: unknown };
      if (!Array.isArray(doc?.keys)) throw new Error('no keys array');
    } catch (err) {
      opts.onFetchError?.(uri, `not a JWKS document: ${(err as Error).message}`);
      throw new JwksFetchFailed('not a JWKS document');
    }
    return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return {
    forUri(uri) {
      let getKey = remote.get(uri);
      if (!getKey) {
        getKey = createRemoteJWKSet(new URL(uri), {
          cooldownDuration: opts.cooldownMs ?? 30_000,
          cacheMaxAge: opts.cacheMaxAgeMs ?? 10 * 60_000,
          timeoutDuration: timeoutMs,
          [customFetch]: guardedFetch,
        });
        remote.set(uri, getKey);
      }
      return getKey;
    },
    forInline(jwks) {
      const key = JSON.stringify(jwks);
      let getKey = inline.get(key);
      if (!getKey) {
        getKey = createLocalJWKSet(jwks);
        inline.set(key, getKey);
      }
      return getKey;
    },
    clear() {
      remote.clear();
      inline.clear();
    },
  };
}
