import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { DemoSetup } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { partners, users } from '../../db/schema';
import { invalidateServiceAuth } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { recordAudit } from '../audit/record-audit';
import { createPartner } from '../partners/create-partner';
import { createUser } from '../users/create-user';
import { hashPassword } from '../users/hash-password';

export const DEMO_PARTNER_ID = 'demo';
export const DEV_ISSUER = 'urn:ambient:dev-issuer';
export const DEMO_USER_EMAIL = 'demo@example.com';
export const DEMO_TOKEN_EMAIL = 'dr.demo@example.com';
const DEMO_ORG = 'demo-clinic';

interface DevIssuerKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** The local development issuer's RS256 key pair, generated once into DATA_DIR/keys. */
async function devIssuerKey(dataDir: string): Promise<DevIssuerKey> {
  const file = path.join(dataDir, 'keys', 'dev-issuer.jwk.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as DevIssuerKey;
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `dev-${crypto.randomUUID().slice(0, 8)}`;
  const key: DevIssuerKey = {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256' },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify(key, null, 2), { mode: 0o600 });
  return key;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Idempotent demo setup: partner "demo" trusting the development issuer, a demo clinician console user
 * (its password is reset to a new random one on every run, so it can always be printed), and a partner_token
 * with the curl lines to register and log in a provider with it.
 */
export async function setupDemo(app: AppContext, admin: AdminPrincipal): Promise<DemoSetup> {
  const key = await devIssuerKey(app.config.dataDir);
  const jwks = { keys: [{ ...key.publicJwk, kty: key.publicJwk.kty ?? 'RSA' }] };
  // A service admin's scope (the handler requires every tenant): the demo partner and its user, wherever they are.
  const tdb = tenantDb(app, admin);
  const existing = await tdb.find(partners, eq(partners.partnerId, DEMO_PARTNER_ID));
  if (!existing) {
    await createPartner(app, { partner_id: DEMO_PARTNER_ID, name: 'Demo partner', type: 'STANDARD', access_level: 'FULL', issuer: DEV_ISSUER, jwks }, admin.actor);
  } else if (existing.issuer !== DEV_ISSUER || JSON.stringify(existing.jwks) !== JSON.stringify(jwks)) {
    await tdb.update(partners, { issuer: DEV_ISSUER, jwks, jwksUri: null, updatedAt: new Date() }, eq(partners.partnerId, DEMO_PARTNER_ID));
    invalidateServiceAuth(app);
  }

  const password = crypto.randomBytes(12).toString('base64url');
  const user = await tdb.find(users, eq(users.email, DEMO_USER_EMAIL));
  if (user) {
    await tdb.update(users, { passwordHash: await hashPassword(password), disabled: false }, eq(users.id, user.id));
  } else {
    await createUser(
      app,
      { email: DEMO_USER_EMAIL, password, role: 'clinician', name: 'Dr Demo (console)', partner_id: DEMO_PARTNER_ID, provider_email: DEMO_USER_EMAIL },
      admin,
    );
  }

  const expires = Math.floor(Date.now() / 1000) + 24 * 3600;
  const partnerToken = await new SignJWT({ email: DEMO_TOKEN_EMAIL, name: 'Dr Demo' })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(DEV_ISSUER)
    .setSubject(DEMO_TOKEN_EMAIL)
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(await importJWK(key.privateJwk, 'RS256'));

  const base = app.config.publicBaseUrl;
  const register = JSON.stringify({ partner_id: DEMO_PARTNER_ID, partner_token: partnerToken, provider_name: 'Dr Demo', provider_org_id: DEMO_ORG });
  const login = JSON.stringify({ partner_id: DEMO_PARTNER_ID, partner_token: partnerToken });
  const curl = (p: string, body: string) => `curl -sS -X POST ${shellQuote(`${base}${p}`)} -H 'content-type: application/json' -d ${shellQuote(body)}`;

  await recordAudit(tdb, { actor: admin.actor, action: 'demo.setup', targetType: 'partner', targetId: DEMO_PARTNER_ID, partnerId: DEMO_PARTNER_ID });
  return {
    partner_id: DEMO_PARTNER_ID,
    issuer: DEV_ISSUER,
    user: { email: DEMO_USER_EMAIL, password },
    provider_email: DEMO_TOKEN_EMAIL,
    partner_token: partnerToken,
    partner_token_expires_at: new Date(expires * 1000).toISOString(),
    curl: { register: curl('/api/v1/auth/register', register), login: curl('/api/v1/auth/login', login) },
  };
}
