import { jwtVerify, type JSONWebKeySet } from 'jose';
import { unauthorized } from '@/lib/errors';
import type { PartnerKeyCache } from './partner-keys';

/** Asymmetric algorithms only: accepting HS* would let a public key be used as an HMAC secret. */
export const PARTNER_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export interface PartnerTrust {
  issuer: string;
  audience: string | null;
  jwksUri: string | null;
  jwks: unknown;
  emailClaim: string;
}

export interface VerifiedPartnerToken {
  email: string;
  subject?: string;
  claims: Record<string, unknown>;
}

/**
 * Why a token failed, in words an integrator can act on; never includes the token itself. Matched on jose's
 * error codes rather than classes, which differ between bundled copies of the library.
 */
export function describeJwtError(err: unknown): string {
  const code = (err as { code?: string })?.code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'partner_token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (err as { claim?: string }).claim;
      if (claim === 'nbf') return 'partner_token is not yet valid';
      if (claim === 'iss') return 'partner_token issuer does not match the partner trust';
      if (claim === 'aud') return 'partner_token audience does not match the partner trust';
      return `partner_token claim ${claim} is invalid`;
    }
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'partner_token algorithm is not allowed';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'partner_token key id (kid) is not in the partner JWKS';
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'partner_token matches several keys; set kid';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'partner_token signature is invalid';
    // One answer however the fetch failed: refused address, closed or hanging port, error status, oversize.
    case 'ERR_JWKS_FETCH_FAILED':
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JWKS_INVALID':
      return 'partner JWKS could not be fetched';
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return 'partner_token is not a valid JWT';
    default:
      return 'partner_token could not be verified';
  }
}

export async function verifyPartnerToken(token: string, trust: PartnerTrust, keys: PartnerKeyCache): Promise<VerifiedPartnerToken> {
  if (!trust.jwksUri && !trust.jwks) throw unauthorized('partner has no trusted keys configured');
  const getKey = trust.jwksUri ? keys.forUri(trust.jwksUri) : keys.forInline(trust.jwks as JSONWebKeySet);
  let payload: Record<string, unknown>;
  try {
    const result = await jwtVerify(token, getKey, {
      algorithms: PARTNER_TOKEN_ALGORITHMS,
      issuer: trust.issuer,
      audience: trust.audience ?? undefined,
      clockTolerance: 60,
      requiredClaims: ['exp'],
    });
    payload = result.payload as Record<string, unknown>;
  } catch (err) {
    throw unauthorized(describeJwtError(err));
  }
  const email = payload[trust.emailClaim];
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw unauthorized(`partner_token has no email in claim ${trust.emailClaim}`);
  }
  return { email: email.toLowerCase(), subject: typeof payload.sub === 'string' ? payload.sub : undefined, claims: payload };
}
