import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

/**
 * One key resolver per JWKS source. jose's remote set caches the document and refetches it when a token
 * names a kid it has not seen (rate-limited by its cooldown), which is the refresh rule trust needs.
 */
export interface PartnerKeyCache {
  forUri(uri: string): JWTVerifyGetKey;
  forInline(jwks: JSONWebKeySet): JWTVerifyGetKey;
  clear(): void;
}

export function createPartnerKeyCache(opts: { cooldownMs?: number; cacheMaxAgeMs?: number; timeoutMs?: number } = {}): PartnerKeyCache {
  const remote = new Map<string, JWTVerifyGetKey>();
  const inline = new Map<string, JWTVerifyGetKey>();
  return {
    forUri(uri) {
      let getKey = remote.get(uri);
      if (!getKey) {
        getKey = createRemoteJWKSet(new URL(uri), {
          cooldownDuration: opts.cooldownMs ?? 30_000,
          cacheMaxAge: opts.cacheMaxAgeMs ?? 10 * 60_000,
          timeoutDuration: opts.timeoutMs ?? 5_000,
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
