import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT } from 'jose';
import { startServer, type TestServer } from '../test/harness';
import { testApi, unchecked, type TestCallInput } from '../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { createTestPartner, registerAndLogin, type TestPartner } from '../test/partners';
import { createUser as createUserRoute, listUsers } from '@/lib/contracts/routes/admin-users';
import { disableProvider, enableProvider, listPartnerProviders, testPartnerTrust } from '@/lib/contracts/routes/admin-providers';
import { login as loginRoute } from '@/lib/contracts/routes/auth';
import { createSession } from '@/lib/contracts/routes/sessions';
import { createApiKey, listApiKeys, revokeApiKey } from '@/lib/contracts/routes/admin-api-keys';
import { createPartner, getPartner, listPartners } from '@/lib/contracts/routes/admin-partners';
import { getAdminSession, listAdminSessions } from '@/lib/contracts/routes/admin-sessions';
import { listAudit } from '@/lib/contracts/routes/admin-audit';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await server?.stop();
});

/** As a partner-scoped admin key (`key`) or a console session (`cookie`), with `headers`; else as the admin key. */
async function admin<C extends RouteContract>(contract: C, input: TestCallInput<C> & { key?: string; cookie?: string } = {} as never) {
  const { key, cookie, headers: extra, ...rest } = input;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (key) headers.authorization = `Bearer ${key}`;
  if (cookie) headers.cookie = cookie;
  const r = await testApi(server, key || cookie ? headers : 'admin').call(contract, rest as never);
  return { status: r.status, json: r.body };
}

function post<C extends RouteContract>(contract: C, input: TestCallInput<C>, headers: Record<string, string> = {}) {
  return testApi(server, { 'content-type': 'application/json', ...headers }).send(contract, input as never);
}

/** Signs in through next-auth's credentials callback, as the login form does; returns the session cookie. */
async function consoleLogin(email: string, password: string): Promise<string | null> {
  const raw = await consoleLoginRaw(email, password);
  return raw ? raw.split(';')[0]! : null;
}

async function consoleLoginRaw(email: string, password: string): Promise<string | null> {
  // raw fetch: next-auth's own routes (the console sign-in form), which no contract declares
  const csrfRes = await fetch(`${server.baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookie = csrfRes.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const res = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${server.baseUrl}/admin` }),
  });
  return res.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token=')) ?? null;
}

const uid = () => crypto.randomUUID().slice(0, 8);

async function createUser(body: Record<string, unknown>) {
  const r = await admin(createUserRoute, { body: unchecked({ password: 'correct-horse-battery', ...body }) });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json;
}

async function auditFor(query: Record<string, string>) {
  const r = await admin(listAudit, { query });
  expect(r.status).toBe(200);
  return r.json.entries as Array<{ action: string; actor: string; target_id: string; partner_id: string; before: any; after: any }>;
}

describe('providers per partner', () => {
  let partner: TestPartner;
  beforeAll(async () => {
    partner = await createTestPartner(server.baseUrl);
  });

  it('lists registered providers with organisation, link state and last login, and searches them', async () => {
    // Second precision: the stored time may be truncated below the moment taken here.
    const beforeLogin = Math.floor(Date.now() / 1000) * 1000;
    const a = await registerAndLogin(server.baseUrl, partner, { email: `alice.${uid()}@clinic.example`, orgId: 'org-alpha' });
    await registerAndLogin(server.baseUrl, partner, { email: `bob.${uid()}@clinic.example`, orgId: 'org-alpha' });
    const all = await admin(listPartnerProviders, { params: { partner_id: partner.partnerId } });
    expect(all.status).toBe(200);
    expect(all.json.providers).toHaveLength(2);
    const alice = all.json.providers.find((p: any) => p.email === a.email);
    expect(alice).toMatchObject({ organization_external_id: 'org-alpha', link_state: 'linked', disabled: false, specialty: 'FAMILY_MEDICINE' });
    // The login just made, however long the machine took over it.
    expect(Date.parse(alice.last_login_at)).toBeGreaterThanOrEqual(beforeLogin);
    expect(Date.parse(alice.last_login_at)).toBeLessThanOrEqual(Date.now());

    const found = await admin(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { q: 'alice' } });
    expect(found.json.providers.map((p: any) => p.email)).toEqual([a.email]);

    const page1 = await admin(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { limit: '1' } });
    expect(page1.json.providers).toHaveLength(1);
    const page2 = await admin(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { limit: '1', cursor: page1.json.next_cursor } });
    expect(page2.json.providers).toHaveLength(1);
    expect(page2.json.providers[0].provider_id).not.toBe(page1.json.providers[0].provider_id);
    expect(page2.json.next_cursor).toBeNull();

    const bad = await admin(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { limit: '0' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/limit/);
  });

  it('a disabled provider cannot log in (403) nor use its token; enabling restores both; audited with before/after', async () => {
    const email = `carol.${uid()}@clinic.example`;
    const prov = await registerAndLogin(server.baseUrl, partner, { email });
    const list = await admin(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { q: email } });
    const providerId = list.json.providers[0].provider_id;

    const dis = await admin(disableProvider, { params: { partner_id: partner.partnerId, provider_id: providerId } });
    expect(dis.status).toBe(200);
    expect(dis.json.disabled).toBe(true);

    const token = await partner.token({ email });
    const login = await post(loginRoute, { body: { partner_id: partner.partnerId, partner_token: token } });
    expect(login.status).toBe(403);
    expect(await login.json()).toEqual({ code: 403, message: 'provider is disabled' });
    const create = await post(createSession, { body: {} }, prov.headers);
    expect(create.status).toBe(403);

    const en = await admin(enableProvider, { params: { partner_id: partner.partnerId, provider_id: providerId } });
    expect(en.json.disabled).toBe(false);
    expect((await post(loginRoute, { body: { partner_id: partner.partnerId, partner_token: token } })).status).toBe(200);

    const entries = await auditFor({ target_type: 'provider', partner_id: partner.partnerId });
    const forProvider = entries.filter((e) => e.target_id === providerId);
    expect(forProvider.map((e) => e.action)).toEqual(['provider.enable', 'provider.disable']);
    expect(forProvider[1]).toMatchObject({ actor: 'api-key:ADMIN_API_KEY', before: { disabled: false }, after: { disabled: true } });
  });

  it('a provider of another partner, or an unknown one, is 404', async () => {
    const other = await createTestPartner(server.baseUrl);
    await registerAndLogin(server.baseUrl, other);
    const otherList = await admin(listPartnerProviders, { params: { partner_id: other.partnerId } });
    const foreign = otherList.json.providers[0].provider_id;
    expect((await admin(disableProvider, { params: { partner_id: partner.partnerId, provider_id: foreign } })).status).toBe(404);
    expect((await admin(listPartnerProviders, { params: { partner_id: `nope-${uid()}` } })).status).toBe(404);
  });
});

describe('API keys', () => {
  it('creates a key shown once (only a prefix listed), authorises with it, and answers 401 after revocation', async () => {
    const created = await admin(createApiKey, { body: { name: `automation-${uid()}` } });
    expect(created.status).toBe(201);
    const key: string = created.json.key;
    expect(key).toMatch(/^amb_/);
    expect(key.startsWith(created.json.prefix)).toBe(true);
    const listed = await admin(listApiKeys);
    const row = listed.json.api_keys.find((k: any) => k.id === created.json.id);
    expect(row).toMatchObject({ name: created.json.name, partner_id: null, revoked_at: null });
    expect(JSON.stringify(listed.json)).not.toContain(key);

    const use = await admin(listPartners, { key });
    expect(use.status).toBe(200);

    const revoked = await admin(revokeApiKey, { params: { id: created.json.id } });
    expect(revoked.status).toBe(200);
    expect(revoked.json.revoked_at).not.toBeNull();
    const after = await admin(listPartners, { key });
    expect(after.status).toBe(401);
    expect(after.json).toEqual({ code: 401, message: 'admin API key is invalid or revoked' });

    const entries = await auditFor({ target_type: 'api_key', action: 'api_key.revoke' });
    const e = entries.find((x) => x.target_id === created.json.id)!;
    expect(e.before.revoked_at).toBeNull();
    expect(e.after.revoked_at).toBe(revoked.json.revoked_at);
    expect(JSON.stringify(e)).not.toContain(key);
  });

  it('a partner-scoped key sees only its partner (others 404) and cannot create partners or service-wide keys', async () => {
    const mine = await createTestPartner(server.baseUrl);
    const theirs = await createTestPartner(server.baseUrl);
    const created = await admin(createApiKey, { body: { name: 'partner key', partner_id: mine.partnerId } });
    const key = created.json.key;
    const partners = await admin(listPartners, { key });
    expect(partners.json.partners.map((p: any) => p.partner_id)).toEqual([mine.partnerId]);
    expect((await admin(getPartner, { params: { partner_id: theirs.partnerId }, key })).status).toBe(404);
    expect((await admin(listPartnerProviders, { params: { partner_id: theirs.partnerId }, key })).status).toBe(404);
    expect((await admin(listAdminSessions, { query: { partner_id: theirs.partnerId }, key })).status).toBe(404);
    const newKey = await admin(createApiKey, { key, body: { name: 'child' } });
    expect(newKey.status).toBe(201);
    expect(newKey.json.partner_id).toBe(mine.partnerId);
    expect((await admin(createApiKey, { key, body: { name: 'x', partner_id: theirs.partnerId } })).status).toBe(404);
    const p = await admin(createPartner, { key, body: { name: 'n', type: 'STANDARD', issuer: 'i', jwks_uri: 'https://x.example/jwks' } });
    expect(p.status).toBe(403);
  });
});

describe('console users and sign-in', () => {
  it('a service admin signs in with email and password and can call the admin API with the session cookie', async () => {
    const email = `root.${uid()}@example.com`;
    const user = await createUser({ email, role: 'admin', name: 'Root' });
    expect(user).toMatchObject({ email, role: 'service_admin', partner_id: null, provider_id: null });
    expect(JSON.stringify(user)).not.toMatch(/argon2|password/);

    expect(await consoleLogin(email, 'wrong-password-123')).toBeNull();
    const cookie = await consoleLogin(email, 'correct-horse-battery');
    expect(cookie).not.toBeNull();
    const r = await admin(listPartners, { cookie: cookie! });
    expect(r.status).toBe(200);

    // The cookie cannot drive a write from another site.
    const forged = await admin(createApiKey, { cookie: cookie!, body: { name: 'x' }, headers: { origin: 'https://evil.example' } });
    expect(forged.status).toBe(401);
    const sameSite = await admin(createApiKey, { cookie: cookie!, body: { name: `console-${uid()}` }, headers: { origin: server.baseUrl } });
    expect(sameSite.status).toBe(201);
    expect(sameSite.json.created_by).toBe(`user:${email}`);

    const users = await admin(listUsers);
    expect(users.json.users.find((u: any) => u.email === email)).toMatchObject({ role: 'service_admin', disabled: false });
    expect(users.json.users.find((u: any) => u.email === email).last_login_at).not.toBeNull();
  });

  it('the session cookie is HttpOnly, SameSite=Lax and expires after AUTH_SESSION_MAX_AGE (8 h by default)', async () => {
    const email = `exp.${uid()}@example.com`;
    await createUser({ email, role: 'service_admin' });
    const raw = (await consoleLoginRaw(email, 'correct-horse-battery'))!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    const expires = Date.parse(/Expires=([^;]+)/i.exec(raw)![1]!);
    expect(Math.abs(expires - (Date.now() + 8 * 3600_000))).toBeLessThan(10 * 60_000);
  });

  it('a partner admin session sees only its partner; a clinician session is not an admin', async () => {
    const mine = await createTestPartner(server.baseUrl);
    const theirs = await createTestPartner(server.baseUrl);
    const paEmail = `pa.${uid()}@example.com`;
    await createUser({ email: paEmail, role: 'partner_admin', partner_id: mine.partnerId });
    const cookie = (await consoleLogin(paEmail, 'correct-horse-battery'))!;
    const partners = await admin(listPartners, { cookie });
    expect(partners.json.partners.map((p: any) => p.partner_id)).toEqual([mine.partnerId]);
    expect((await admin(getPartner, { params: { partner_id: theirs.partnerId }, cookie })).status).toBe(404);
    const audit = await admin(listAudit, { cookie });
    expect(audit.json.entries.every((e: any) => e.partner_id === mine.partnerId)).toBe(true);

    const drEmail = `dr.${uid()}@example.com`;
    const clin = await createUser({ email: drEmail, role: 'clinician', partner_id: mine.partnerId });
    expect(clin.provider_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(clin.partner_id).toBe(mine.partnerId);
    const providers = await admin(listPartnerProviders, { params: { partner_id: mine.partnerId }, query: { q: drEmail } });
    expect(providers.json.providers[0].provider_id).toBe(clin.provider_id);
    const clinCookie = (await consoleLogin(drEmail, 'correct-horse-battery'))!;
    expect(clinCookie).toBeTruthy();
    expect((await admin(listPartners, { cookie: clinCookie })).status).toBe(401);
  });

  it('validates users: duplicate email 409, partner_admin without partner 400, short password 400', async () => {
    const email = `dup.${uid()}@example.com`;
    await createUser({ email, role: 'service_admin' });
    const dup = await admin(createUserRoute, { body: { email, password: 'correct-horse-battery', role: 'service_admin' } });
    expect(dup.status).toBe(409);
    expect(dup.json.message).toMatch(/^email:/);
    const noPartner = await admin(createUserRoute, { body: { email: `x.${uid()}@example.com`, password: 'correct-horse-battery', role: 'partner_admin' } });
    expect(noPartner).toEqual({ status: 400, json: { code: 400, message: 'partner_id: is required for partner_admin users' } });
    const short = await admin(createUserRoute, { body: { email: `y.${uid()}@example.com`, password: 'short', role: 'service_admin' } });
    expect(short.status).toBe(400);
    expect(short.json.message).toMatch(/^password:/);
    const created = await auditFor({ action: 'user.create' });
    const entry = created.find((e) => e.after?.email === email)!;
    expect(entry.before).toBeNull();
    expect(entry.after).toMatchObject({ email, role: 'service_admin' });
  });
});

describe('sessions', () => {
  it('lists sessions with filters and pages, and shows one with its status history', async () => {
    const partner = await createTestPartner(server.baseUrl);
    const prov = await registerAndLogin(server.baseUrl, partner);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await post(createSession, { body: {} }, prov.headers);
      expect(r.status).toBe(201);
      ids.push(((await r.json()) as { ambient_session_id: string }).ambient_session_id);
    }
    const list = await admin(listAdminSessions, { query: { partner_id: partner.partnerId, status: 'created' } });
    expect(list.json.sessions.map((s: any) => s.ambient_session_id)).toEqual([...ids].reverse());
    expect(list.json.sessions[0]).toMatchObject({ partner_id: partner.partnerId, provider_name: 'Dr Test', provider_email: prov.email, status: 'created' });

    const p1 = await admin(listAdminSessions, { query: { partner_id: partner.partnerId, limit: '2' } });
    const p2 = await admin(listAdminSessions, { query: { partner_id: partner.partnerId, limit: '2', cursor: p1.json.next_cursor } });
    expect([...p1.json.sessions, ...p2.json.sessions].map((s: any) => s.ambient_session_id)).toEqual([...ids].reverse());
    expect(p2.json.next_cursor).toBeNull();

    const none = await admin(listAdminSessions, { query: { partner_id: partner.partnerId, status: 'completed' } });
    expect(none.json.sessions).toEqual([]);
    const future = await admin(listAdminSessions, { query: { partner_id: partner.partnerId, from: '2999-01-01' } });
    expect(future.json.sessions).toEqual([]);
    const badDate = await admin(listAdminSessions, { query: { from: 'yesterday' } });
    expect(badDate.status).toBe(400);
    expect(badDate.json.message).toMatch(/^query parameter from:/);

    const detail = await admin(getAdminSession, { params: { id: ids[0] } });
    expect(detail.status).toBe(200);
    expect(detail.json.session.ambient_session_id).toBe(ids[0]);
    expect(detail.json.transitions[0]).toMatchObject({ to_status: 'created' });
    expect(detail.json).toMatchObject({ recordings: [], transcript: [], content: null, webhook_deliveries: [] });

    const key = (await admin(createApiKey, { body: { name: 'other', partner_id: (await createTestPartner(server.baseUrl)).partnerId } })).json.key;
    expect((await admin(getAdminSession, { params: { id: ids[0] }, key })).status).toBe(404);
    expect((await admin(getAdminSession, { params: { id: crypto.randomUUID() } })).status).toBe(404);
  });
});

describe('trust test', () => {
  it('says whether a partner_token would be accepted, and why not', async () => {
    const partner = await createTestPartner(server.baseUrl);
    const ok = await admin(testPartnerTrust, { params: { partner_id: partner.partnerId }, body: { partner_token: await partner.token({ email: 'Dr.X@Clinic.Example' }) } });
    expect(ok.json).toEqual({ valid: true, email: 'dr.x@clinic.example' });
    const expired = await admin(testPartnerTrust, { params: { partner_id: partner.partnerId }, body: { partner_token: await partner.token({}, { expiresIn: Math.floor(Date.now() / 1000) - 3600 }) } });
    expect(expired.json).toEqual({ valid: false, reason: 'partner_token has expired' });
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ email: 'a@b.example' })
      .setProtectedHeader({ alg: 'RS256', kid: 'unknown-kid' })
      .setIssuer(partner.issuer)
      .setAudience(partner.audience)
      .setExpirationTime('5m')
      .sign(privateKey);
    const unknownKid = await admin(testPartnerTrust, { params: { partner_id: partner.partnerId }, body: { partner_token: foreign } });
    expect(unknownKid.json).toEqual({ valid: false, reason: 'partner_token key id (kid) is not in the partner JWKS' });
    const garbage = await admin(testPartnerTrust, { params: { partner_id: partner.partnerId }, body: { partner_token: 'not-a-jwt' } });
    expect(garbage.json.valid).toBe(false);
    const empty = await admin(testPartnerTrust, { params: { partner_id: partner.partnerId }, body: { partner_token: '' } });
    expect(empty.json).toEqual({ code: 400, message: 'partner_token: must not be empty' });
  });
});
