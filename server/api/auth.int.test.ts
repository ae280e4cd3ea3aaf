import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64url, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner } from '../test/partners';
import { infoRoute, testApi, unchecked } from '../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { getJwks } from '@/lib/contracts/routes/meta';
import { createPartner, getPartner } from '@/lib/contracts/routes/admin-partners';
import { getAllInfo } from '@/lib/contracts/routes/info';
import { login as loginRoute, register as registerRoute } from '@/lib/contracts/routes/auth';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { JWKS_COOLDOWN_MS: '0', RATE_LIMIT_AUTH_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await server?.stop();
});

async function post<C extends RouteContract>(contract: C, input: { body: unknown }, headers: Record<string, string> = {}) {
  const r = await testApi(server, { 'content-type': 'application/json', ...headers }).call(contract, { body: unchecked(input.body) } as never);
  return { status: r.status, text: r.text, json: r.body, headers: r.headers };
}

const email = () => `dr.${crypto.randomUUID().slice(0, 8)}@clinic.example`;

function register(p: TestPartner, token: string, extra: Record<string, unknown> = {}) {
  return post(registerRoute, { body: { partner_id: p.partnerId, partner_token: token, provider_name: 'Dr A', provider_org_id: `org-${p.partnerId}`, ...extra } });
}
function login(p: TestPartner, token: string, extra: Record<string, unknown> = {}) {
  return post(loginRoute, { body: { partner_id: p.partnerId, partner_token: token, ...extra } });
}

describe('register and login: STANDARD partner', () => {
  it('registers (201, no body), refuses a second link (409), logs in with a one-hour ES256 token', async () => {
    const p = await createTestPartner(server.baseUrl);
    const token = await p.token({ email: email() });
    const first = await register(p, token);
    expect(first.status).toBe(201);
    expect(first.text).toBe('');
    const again = await register(p, token);
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ code: 409, message: expect.stringContaining('already linked') });

    const res = await login(p, token, { provider_id: 'ignored-for-standard' });
    expect(res.status).toBe(200);
    const parts = res.json.service_token.split('.');
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString());
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString());
    expect(header.alg).toBe('ES256');
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.pid).toBe(p.partnerId);

    // The token verifies against the published JWKS.
    const jwks = await (await testApi(server.baseUrl).send(getJwks)).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);
    expect(jwks.keys[0].d).toBeUndefined();

    const info = await testApi(server.baseUrl, { sdp_service_token: res.json.service_token }).send(infoRoute('specialties'));
    expect(info.status).toBe(200);
    expect((await info.json()).specialties).toEqual(expect.arrayContaining([{ code: 'FAMILY_MEDICINE' }]));
  });

  it('links an existing provider to a second partner in the same organisation (201), and refuses another organisation (403)', async () => {
    const a = await createTestPartner(server.baseUrl);
    const b = await createTestPartner(server.baseUrl);
    const c = await createTestPartner(server.baseUrl);
    const who = email();
    expect((await register(a, await a.token({ email: who }), { provider_org_id: 'org-shared' })).status).toBe(201);
    expect((await register(b, await b.token({ email: who }), { provider_org_id: 'org-shared' })).status).toBe(201);
    expect((await login(b, await b.token({ email: who }))).status).toBe(200);
    const other = await register(c, await c.token({ email: who }), { provider_org_id: 'org-other' });
    expect(other.status).toBe(403);
    expect(other.json.message).toContain('provider_org_id');
  });

  it('defaults the specialty to FAMILY_MEDICINE and rejects an unknown one naming the field', async () => {
    const p = await createTestPartner(server.baseUrl);
    const bad = await register(p, await p.token({ email: email() }), { provider_specialty: 'WIZARDRY' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('provider_specialty');
    const res = await testApi(server.baseUrl, 'admin').send(getPartner, { params: { partner_id: p.partnerId } });
    expect(res.status).toBe(200);
  });

  it('answers 404 on login for a provider that is not registered', async () => {
    const p = await createTestPartner(server.baseUrl);
    const res = await login(p, await p.token({ email: email() }));
    expect(res.status).toBe(404);
    expect(res.json.message).toContain('register');
  });

  it('names missing fields with 400', async () => {
    const p = await createTestPartner(server.baseUrl);
    const res = await post(registerRoute, { body: { partner_id: p.partnerId, partner_token: await p.token() } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 400, message: expect.stringMatching(/provider_name|provider_org_id/) });
  });
});

describe('register and login: BEARER and SINGLE_AUTH_TOKEN partners', () => {
  for (const type of ['BEARER', 'SINGLE_AUTH_TOKEN'] as const) {
    it(`${type}: provider_id is required, must match the pattern, and sdp_provider_id must match on later calls`, async () => {
      const p = await createTestPartner(server.baseUrl, { type });
      const shared = await p.token({ email: 'integration@partner.example' });
      const missing = await register(p, shared);
      expect(missing.status).toBe(400);
      expect(missing.json.message).toContain('provider_id');
      const badFormat = await register(p, shared, { provider_id: 'npi-12' });
      expect(badFormat.status).toBe(400);
      expect(badFormat.json.message).toContain('provider_id');

      expect((await register(p, shared, { provider_id: 'NPI-111111' })).status).toBe(201);
      expect((await register(p, shared, { provider_id: 'NPI-222222' })).status).toBe(201);
      expect((await register(p, shared, { provider_id: 'NPI-111111' })).status).toBe(409);
      const loginMissing = await login(p, shared);
      expect(loginMissing.status).toBe(400);
      const unregistered = await login(p, shared, { provider_id: 'NPI-999999' });
      expect(unregistered.status).toBe(404);

      const ok = await login(p, shared, { provider_id: 'NPI-111111' });
      expect(ok.status).toBe(200);
      const token = ok.json.service_token;
      const call = (h: Record<string, string>) => testApi(server.baseUrl, { sdp_service_token: token, ...h }).send(infoRoute('visit-types'));
      expect((await call({})).status).toBe(401);
      expect((await call({ sdp_provider_id: 'NPI-222222' })).status).toBe(401);
      const good = await call({ sdp_provider_id: 'NPI-111111' });
      expect(good.status).toBe(200);
      expect((await good.json()).visit_types.length).toBeGreaterThan(4);
    });
  }

  it('a STANDARD partner needs no sdp_provider_id', async () => {
    const p = await createTestPartner(server.baseUrl);
    const prov = await registerAndLogin(server.baseUrl, p);
    const res = await testApi(server.baseUrl, { sdp_service_token: prov.serviceToken }).send(getAllInfo);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'loincs', 'specialties', 'encounter_types', 'visit_types', 'provider_roles', 'diagnosis_code_types',
        'medication_coding_systems', 'medication_dosage_units', 'medication_frequency_types', 'medication_timings',
        'medication_order_statuses', 'order_encounter_relations', 'order_origins', 'structured_data_field_types',
      ].sort(),
    );
  });

  it('refuses a READONLY BEARER partner at creation', async () => {
    const res = await testApi(server.baseUrl, 'admin').send(createPartner, { body: { name: 'x', type: 'BEARER', access_level: 'READONLY', issuer: 'i', jwks_uri: 'https://idp.example/jwks', provider_id_pattern: '.+' } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain('access_level');
  });

  it('lets a READONLY partner register, log in and read', async () => {
    const p = await createTestPartner(server.baseUrl, { access_level: 'READONLY' });
    const prov = await registerAndLogin(server.baseUrl, p);
    const res = await testApi(server.baseUrl, { sdp_service_token: prov.serviceToken }).send(infoRoute('loincs'));
    expect(res.status).toBe(200);
  });
});

describe('partner_token attacks are 401', () => {
  let p: TestPartner;
  let who: string;
  beforeAll(async () => {
    p = await createTestPartner(server.baseUrl);
    who = email();
    expect((await register(p, await p.token({ email: who }))).status).toBe(201);
  });

  const expect401 = async (token: string, reason: RegExp) => {
    const res = await login(p, token);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe(401);
    expect(res.json.message).toMatch(reason);
  };

  it('alg none', async () => {
    const token = new UnsecuredJWT({ email: who }).setIssuer(p.issuer).setAudience(p.audience).setExpirationTime('5m').encode();
    await expect401(token, /not allowed|not a valid|could not/);
  });

  it('HMAC signed with the public key (algorithm confusion)', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(p.publicJwk));
    const token = await new SignJWT({ email: who }).setProtectedHeader({ alg: 'HS256', kid: p.kid }).setIssuer(p.issuer).setAudience(p.audience).setExpirationTime('5m').sign(secret);
    await expect401(token, /algorithm/);
  });

  it('expired and not yet valid', async () => {
    await expect401(await p.token({ email: who }, { expiresIn: Math.floor(Date.now() / 1000) - 600 }), /expired/);
    const future = await new SignJWT({ email: who }).setProtectedHeader({ alg: 'RS256', kid: p.kid }).setIssuer(p.issuer).setAudience(p.audience).setNotBefore('1h').setExpirationTime('2h').sign(p.privateKey);
    await expect401(future, /not yet valid/);
  });

  it('wrong issuer and wrong audience', async () => {
    const wrongIss = await new SignJWT({ email: who }).setProtectedHeader({ alg: 'RS256', kid: p.kid }).setIssuer('https://evil.example').setAudience(p.audience).setExpirationTime('5m').sign(p.privateKey);
    await expect401(wrongIss, /issuer/);
    const wrongAud = await new SignJWT({ email: who }).setProtectedHeader({ alg: 'RS256', kid: p.kid }).setIssuer(p.issuer).setAudience('someone-else').setExpirationTime('5m').sign(p.privateKey);
    await expect401(wrongAud, /audience/);
  });

  it('unknown kid, a foreign key, a tampered payload', async () => {
    await expect401(await p.token({ email: who }, { kid: 'no-such-kid' }), /kid/);
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ email: who }).setProtectedHeader({ alg: 'RS256', kid: p.kid }).setIssuer(p.issuer).setAudience(p.audience).setExpirationTime('5m').sign(privateKey);
    await expect401(foreign, /signature/);
    const [h, , s] = (await p.token({ email: who })).split('.');
    const forged = base64url.encode(JSON.stringify({ email: 'someone.else@clinic.example', iss: p.issuer, aud: p.audience, exp: Math.floor(Date.now() / 1000) + 300 }));
    await expect401(`${h}.${forged}.${s}`, /signature/);
  });

  it('missing email claim, garbage, and an unknown partner', async () => {
    const noEmail = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'RS256', kid: p.kid }).setIssuer(p.issuer).setAudience(p.audience).setExpirationTime('5m').sign(p.privateKey);
    await expect401(noEmail, /email/);
    await expect401('not.a.jwt', /valid JWT|could not/);
    const res = await post(loginRoute, { body: { partner_id: 'no-such-partner', partner_token: await p.token({ email: who }) } });
    expect(res.status).toBe(401);
    expect(res.json.message).toContain('partner');
  });
});

describe('service_token attacks are 401', () => {
  it('rejects missing, tampered, foreign-signed and alg-none service tokens', async () => {
    const p = await createTestPartner(server.baseUrl);
    const prov = await registerAndLogin(server.baseUrl, p);
    const call = (token?: string) => testApi(server.baseUrl, token ? { sdp_service_token: token } : {}).send(infoRoute('loincs'));
    expect((await call()).status).toBe(401);
    const [h, payload, s] = prov.serviceToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = `${h}.${base64url.encode(JSON.stringify({ ...claims, pid: 'other' }))}.${s}`;
    expect((await call(tampered)).status).toBe(401);
    const { privateKey } = await generateKeyPair('ES256');
    const foreign = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: JSON.parse(Buffer.from(h!, 'base64url').toString()).kid }).sign(privateKey);
    expect((await call(foreign)).status).toBe(401);
    const none = new UnsecuredJWT(claims).encode();
    expect((await call(none)).status).toBe(401);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
    const res = await call(expired);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: expect.stringContaining('sdp_service_token') });
  });
});

describe('JWKS by URI', () => {
  it('fetches the partner JWKS, caches it, and refetches when a token names an unknown kid', async () => {
    let keys: unknown[] = [];
    let fetches = 0;
    const jwksServer = http.createServer((_req, res) => {
      fetches++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys }));
    });
    await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
    const port = (jwksServer.address() as { port: number }).port;
    try {
      const k1 = await generateKeyPair('ES256', { extractable: true });
      const k2 = await generateKeyPair('ES256', { extractable: true });
      keys = [{ ...(await exportJWK(k1.publicKey)), kid: 'k1', alg: 'ES256' }];
      const partnerId = `uri-${crypto.randomUUID().slice(0, 8)}`;
      const created = await testApi(server.baseUrl, 'admin').send(createPartner, { body: { partner_id: partnerId, name: 'URI partner', type: 'STANDARD', issuer: 'https://idp.uri.example', jwks_uri: `http://127.0.0.1:${port}/jwks.json` } });
      expect(created.status).toBe(201);
      const sign = (key: CryptoKey, kid: string, who: string) =>
        new SignJWT({ email: who }).setProtectedHeader({ alg: 'ES256', kid }).setIssuer('https://idp.uri.example').setExpirationTime('5m').sign(key);
      const who = email();
      const body = (t: string) => ({ partner_id: partnerId, partner_token: t, provider_name: 'Dr U', provider_org_id: 'org-u' });
      expect((await post(registerRoute, { body: body(await sign(k1.privateKey, 'k1', who)) })).status).toBe(201);
      expect((await post(loginRoute, { body: body(await sign(k1.privateKey, 'k1', who)) })).status).toBe(200);
      const afterFirst = fetches;
      expect(afterFirst).toBeGreaterThanOrEqual(1);
      // The partner rotates its key: the unknown kid makes the service refetch the JWKS.
      keys = [{ ...(await exportJWK(k2.publicKey)), kid: 'k2', alg: 'ES256' }];
      expect((await post(loginRoute, { body: body(await sign(k2.privateKey, 'k2', who)) })).status).toBe(200);
      expect(fetches).toBeGreaterThan(afterFirst);
    } finally {
      jwksServer.close();
    }
  });
});
