import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { forbidden, unauthorized } from '@/lib/errors';
import type { AppContext } from '../context';
import { partners, providerPartners, providers } from '../db/schema';
import type { CachedClaims, CachedLink, ServicePrincipal } from './principals';
import { systemDb } from '../db';

export type { CachedClaims, CachedLink, ServicePrincipal };

const LINK_CACHE_MS = 5_000;
/**
 * An ES256 signature check costs more than the rest of a status poll; a client polls with the same token
 * many times a second. A verified token's claims are kept for a few seconds by the token's hash (never
 * past its expiry), so revocation-by-disable still acts through the link cache within LINK_CACHE_MS.
 */
const TOKEN_CACHE_MS = 5_000;

function tokenCache(app: AppContext): Map<string, CachedClaims> {
  return app.services.tokenCache;
}

async function verifyCached(app: AppContext, token: string): Promise<{ sub: string; pid: string }> {
  const cache = tokenCache(app);
  const key = crypto.hash('sha256', token, 'base64url');
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now && hit.exp * 1000 > now) return hit;
  const claims = await app.keys.verify(token);
  const entry: CachedClaims = { sub: claims.sub, pid: claims.pid, exp: claims.exp ?? 0, until: now + TOKEN_CACHE_MS };
  if (cache.size > 10_000) cache.clear();
  cache.set(key, entry);
  return entry;
}

function linkCache(app: AppContext): Map<string, CachedLink> {
  return app.services.linkCache;
}

/** Drops cached provider links so a disable or partner change takes effect at once. */
export function invalidateServiceAuth(app: AppContext): void {
  linkCache(app).clear();
  tokenCache(app).clear();
}

async function loadLink(app: AppContext, providerId: string, partnerId: string): Promise<CachedLink | null> {
  const cache = linkCache(app);
  const key = `${providerId}|${partnerId}`;
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return hit;
  const rows = await systemDb(app, 'authenticates the caller: no scope exists before it')
    .select({
      providerId: providers.id,
      organizationId: providers.organizationId,
      email: providers.email,
      disabled: providerPartners.disabled,
      partnerProviderId: providerPartners.partnerProviderId,
      partnerType: partners.type,
      accessLevel: partners.accessLevel,
    })
    .from(providerPartners)
    .innerJoin(providers, eq(providers.id, providerPartners.providerId))
    .innerJoin(partners, eq(partners.partnerId, providerPartners.partnerId))
    .where(and(eq(providerPartners.providerId, providerId), eq(providerPartners.partnerId, partnerId)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const entry: CachedLink = {
    principal: {
      providerId: row.providerId,
      partnerId,
      organizationId: row.organizationId,
      partnerProviderId: row.partnerProviderId,
      partnerType: row.partnerType,
      accessLevel: row.accessLevel,
      email: row.email,
      scope: Object.freeze({ kind: 'provider', partnerId, providerId: row.providerId }),
    },
    disabled: row.disabled,
    expires: Date.now() + LINK_CACHE_MS,
  };
  if (cache.size > 10_000) cache.clear();
  cache.set(key, entry);
  return entry;
}

export async function authenticateServiceToken(
  app: AppContext,
  token: string | null | undefined,
  providerHeader: string | null | undefined,
  opts: { write: boolean },
): Promise<ServicePrincipal> {
  if (!token) throw unauthorized('sdp_service_token header is required');
  let claims;
  try {
    claims = await verifyCached(app, token);
  } catch {
    throw unauthorized('sdp_service_token is invalid or expired');
  }
  const link = await loadLink(app, claims.sub, claims.pid);
  if (!link) throw unauthorized('sdp_service_token names a provider that is no longer registered');
  if (link.disabled) throw forbidden('provider is disabled');
  const p = link.principal;
  if (p.partnerType !== 'STANDARD') {
    if (!providerHeader) throw unauthorized('sdp_provider_id header is required for this partner type');
    if (providerHeader !== p.partnerProviderId) throw unauthorized('sdp_provider_id does not match the service token');
  }
  if (opts.write && p.accessLevel === 'READONLY') throw forbidden('partner access level is READONLY');
  return p;
}
