import crypto from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createPartner } from '@/lib/contracts/routes/admin-partners';
import { login, register } from '@/lib/contracts/routes/auth';
import { testApi } from './api-client';
import { ADMIN_KEY } from './harness';

export interface TestPartner {
  partnerId: string;
  issuer: string;
  audience: string;
  webhookSecret: string;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  token(claims?: Record<string, unknown>, opts?: { expiresIn?: string | number; kid?: string }): Promise<string>;
}

/** A partner with its own signing key, trusted through an inline JWKS. */
export async function createTestPartner(
  baseUrl: string,
  opts: { type?: 'STANDARD' | 'BEARER' | 'SINGLE_AUTH_TOKEN'; access_level?: 'FULL' | 'READONLY'; webhook_url?: string; extra?: Record<string, unknown> } = {},
): Promise<TestPartner> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = crypto.randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const partnerId = `p-${crypto.randomUUID().slice(0, 12)}`;
  const issuer = `https://idp.example.test/${partnerId}`;
  const audience = 'ambient-test';
  const type = opts.type ?? 'STANDARD';
  const res = await testApi(baseUrl, 'admin').call(createPartner, {
    body: {
      partner_id: partnerId,
      name: `Test partner ${partnerId}`,
      type,
      access_level: opts.access_level ?? 'FULL',
      issuer,
      audience,
      jwks: { keys: [publicJwk as typeof publicJwk & { kty: string }] },
      provider_id_pattern: type === 'STANDARD' ? undefined : '^NPI-[0-9]{6}$',
      webhook_url: opts.webhook_url,
      ...opts.extra,
    },
  });
  if (res.status !== 201) throw new Error(`partner create failed: ${res.status} ${res.text}`);
  const body = res.data;
  return {
    partnerId,
    issuer,
    audience,
    webhookSecret: body.webhook_secret,
    kid,
    privateKey,
    publicJwk,
    async token(claims = {}, o = {}) {
      return new SignJWT({ email: `dr.${crypto.randomUUID().slice(0, 8)}@clinic.example`, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: o.kid ?? kid })
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(o.expiresIn ?? '10m')
        .sign(privateKey);
    },
  };
}

export interface TestProvider {
  serviceToken: string;
  providerId?: string;
  email: string;
  headers: Record<string, string>;
}

/** Registers and logs in a provider; returns the headers later calls need. */
export async function registerAndLogin(
  baseUrl: string,
  partner: TestPartner,
  opts: { providerId?: string; email?: string; orgId?: string } = {},
): Promise<TestProvider> {
  const email = opts.email ?? `dr.${crypto.randomUUID().slice(0, 8)}@clinic.example`;
  const token = await partner.token({ email });
  const api = testApi(baseUrl, { 'content-type': 'application/json' });
  const reg = await api.call(register, {
    body: {
      partner_id: partner.partnerId,
      partner_token: token,
      provider_name: 'Dr Test',
      provider_org_id: opts.orgId ?? `org-${partner.partnerId}`,
      provider_id: opts.providerId,
    },
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const login_ = await api.call(login, { body: { partner_id: partner.partnerId, partner_token: token, provider_id: opts.providerId } });
  if (login_.status !== 200) throw new Error(`login failed: ${login_.status} ${login_.text}`);
  const { service_token } = login_.data;
  const headers: Record<string, string> = { sdp_service_token: service_token, 'content-type': 'application/json' };
  if (opts.providerId) headers.sdp_provider_id = opts.providerId;
  return { serviceToken: service_token, providerId: opts.providerId, email, headers };
}
