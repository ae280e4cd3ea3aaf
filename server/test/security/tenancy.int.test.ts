/**
 * Tenant boundaries between partners that share a provider (issue #12 items 1, 2 and 9), against the real
 * server: a partner admin cannot take over another partner's provider through a console user, a console
 * user's token always carries its own partner, disabling is per partner link, each partner sees only the
 * sessions created through it, and a partner admin cannot change its own access level, type or trust.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../partners';
import { testApi, type Caller, type TestCallInput } from '../api-client';
import type { RouteContract } from '@/lib/api/contract';
import { createApiKey } from '@/lib/contracts/routes/admin-api-keys';
import { getClinicianToken, listProviderSessions } from '@/lib/contracts/routes/app';
import { login as loginRoute } from '@/lib/contracts/routes/auth';
import { createSession as createSessionRoute, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { getAdminSession, listAdminSessions } from '@/lib/contracts/routes/admin-sessions';
import { disableProvider, enableProvider, listPartnerProviders } from '@/lib/contracts/routes/admin-providers';
import { createUser, listUsers } from '@/lib/contracts/routes/admin-users';
import { getPartner, rotateWebhookSecret, updatePartner } from '@/lib/contracts/routes/admin-partners';

let server: TestServer;
let partnerA: TestPartner;
let partnerB: TestPartner;
let keyA: string;
let keyB: string;
/** Provider X, registered with partner A only: the target of the takeover attempts. */
let xEmail: string;
let xId: string;
let xViaA: TestProvider;

const PASSWORD = 'correct-horse-battery';
const uid = () => crypto.randomUUID().slice(0, 8);
const today = () => new Date().toISOString().slice(0, 10);

interface Result {
  status: number;
  json: any;
}

/** As the admin key, a partner-scoped admin key (`key`), or other headers (with the key too where both are given). */
async function call<C extends RouteContract>(contract: C, input: TestCallInput<C> & { key?: string } = {} as never): Promise<Result> {
  const { key, headers: extra, ...rest } = input;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  const who: Caller = key ? { ...headers, authorization: `Bearer ${key}` } : extra ? headers : 'admin';
  const r = await testApi(server, who).call(contract, rest as never);
  return { status: r.status, json: r.body };
}

async function partnerKey(partnerId: string): Promise<string> {
  const r = await call(createApiKey, { body: { name: `admin of ${partnerId}`, partner_id: partnerId } });
  expect(r.status).toBe(201);
  return r.json.key as string;
}

/** Signs in through next-auth's credentials callback as the login form does; returns the session cookie. */
async function consoleCookie(email: string): Promise<string> {
  const csrfRes = await fetch(`${server.baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfRes.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') },
    body: new URLSearchParams({ email, password: PASSWORD, csrfToken, callbackUrl: `${server.baseUrl}/visits` }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='));
  expect(cookie, `sign-in of ${email}`).toBeDefined();
  return cookie!.split(';')[0]!;
}

async function appToken(email: string): Promise<Result> {
  const res = await testApi(server.baseUrl, { cookie: await consoleCookie(email) }).send(getClinicianToken);
  return { status: res.status, json: await res.json() };
}

function partnerOf(serviceToken: string): string {
  return (JSON.parse(Buffer.from(serviceToken.split('.')[1]!, 'base64url').toString()) as { pid: string }).pid;
}

async function login(partner: TestPartner, email: string): Promise<Result> {
  return call(loginRoute, { headers: {}, body: { partner_id: partner.partnerId, partner_token: await partner.token({ email }) } });
}

async function createSession(headers: Record<string, string>): Promise<string> {
  const r = await call(createSessionRoute, { headers, body: {} });
  expect(r.status).toBe(201);
  return r.json.ambient_session_id as string;
}

const status = (headers: Record<string, string>, id: string) => call(getSessionStatus, { params: { ambient_session_id: id }, headers });
const dayList = async (headers: Record<string, string>) =>
  ((await call(listProviderSessions, { query: { date: today() }, headers })).json.sessions as { ambient_session_id: string }[]).map((s) => s.ambient_session_id);
const adminList = async (key: string) => ((await call(listAdminSessions, { key })).json.sessions as { ambient_session_id: string }[]).map((s) => s.ambient_session_id);
const providersOf = async (partnerId: string) => (await call(listPartnerProviders, { params: { partner_id: partnerId } })).json.providers as { provider_id: string; email: string; disabled: boolean }[];

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '10000', SPEECH_ENGINE: 'none' } });
  partnerA = await createTestPartner(server.baseUrl);
  partnerB = await createTestPartner(server.baseUrl);
  keyA = await partnerKey(partnerA.partnerId);
  keyB = await partnerKey(partnerB.partnerId);
  xEmail = `dr.x.${uid()}@clinic.example`;
  xViaA = await registerAndLogin(server.baseUrl, partnerA, { email: xEmail, orgId: 'org-shared' });
  xId = (await providersOf(partnerA.partnerId)).find((p) => p.email === xEmail)!.provider_id;
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

describe("a partner admin cannot take over another partner's provider", () => {
  it('refuses a console user for a provider registered only with another partner, by email or by id', async () => {
    const byEmail = await call(createUser, { key: keyB, body: { email: `thief.${uid()}@b.example`, password: PASSWORD, role: 'clinician', partner_id: partnerB.partnerId, provider_email: xEmail } });
    expect(byEmail.status).toBe(409);
    expect(byEmail.json).toEqual({ code: 409, message: expect.stringMatching(/^provider_email: .*another partner/) });

    const asOwnEmail = await call(createUser, { key: keyB, body: { email: xEmail, password: PASSWORD, role: 'clinician', partner_id: partnerB.partnerId } });
    expect(asOwnEmail.status).toBe(409);
    expect(asOwnEmail.json.message).toMatch(/^email: /);

    const byId = await call(createUser, { key: keyB, body: { email: `thief.${uid()}@b.example`, password: PASSWORD, role: 'clinician', provider_id: xId } });
    expect(byId.status).toBe(404);
    expect(byId.json).toEqual({ code: 404, message: `provider_id: provider ${xId} not found` });

    const otherPartner = await call(createUser, { key: keyB, body: { email: `thief.${uid()}@b.example`, password: PASSWORD, role: 'clinician', partner_id: partnerA.partnerId, provider_email: xEmail } });
    expect(otherPartner.status).toBe(404);

    // Nothing was created or linked: partner B still has no providers and no users.
    expect(await providersOf(partnerB.partnerId)).toEqual([]);
    expect((await call(listUsers, { key: keyB })).json.users).toEqual([]);
  });

  it("still lets a partner admin create a clinician for its own provider, whose token carries that partner", async () => {
    const own = await registerAndLogin(server.baseUrl, partnerB, { email: `dr.b.${uid()}@clinic.example` });
    const email = `console.${uid()}@b.example`;
    const created = await call(createUser, { key: keyB, body: { email, password: PASSWORD, role: 'clinician', partner_id: partnerB.partnerId, provider_email: own.email } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ partner_id: partnerB.partnerId, role: 'clinician' });
    const token = await appToken(email);
    expect(token.status).toBe(200);
    expect(partnerOf(token.json.service_token)).toBe(partnerB.partnerId);
  });
});

describe('one provider linked to two partners', () => {
  // A provider of its own, so this matrix does not depend on what the takeover attempts above did.
  let yEmail: string;
  let yId: string;
  let yViaA: TestProvider;
  let userA: string;
  let yViaB: TestProvider;
  let sessionA: string;
  let sessionB: string;

  beforeAll(async () => {
    yEmail = `dr.y.${uid()}@clinic.example`;
    yViaA = await registerAndLogin(server.baseUrl, partnerA, { email: yEmail, orgId: 'org-shared' });
    yId = (await providersOf(partnerA.partnerId)).find((p) => p.email === yEmail)!.provider_id;
    userA = `console.x.${uid()}@a.example`;
    const created = await call(createUser, { key: keyA, body: { email: userA, password: PASSWORD, role: 'clinician', partner_id: partnerA.partnerId, provider_email: yEmail } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ partner_id: partnerA.partnerId, provider_id: yId });
    // X then joins partner B by registering through it, and logs in there last.
    yViaB = await registerAndLogin(server.baseUrl, partnerB, { email: yEmail, orgId: 'org-shared' });
    expect((await providersOf(partnerB.partnerId)).map((p) => p.provider_id)).toContain(yId);
    sessionA = await createSession(yViaA.headers);
    sessionB = await createSession(yViaB.headers);
  });

  it("keeps the clinician's web-app partner where it was created, whatever partner the provider logged in through last", async () => {
    expect(partnerOf(yViaB.serviceToken)).toBe(partnerB.partnerId);
    const token = await appToken(userA);
    expect(token.status).toBe(200);
    expect(partnerOf(token.json.service_token)).toBe(partnerA.partnerId);
    const appHeaders = { sdp_service_token: token.json.service_token as string, 'content-type': 'application/json' };
    const visit = await createSession(appHeaders);
    expect(await adminList(keyA)).toContain(visit);
    expect(await adminList(keyB)).not.toContain(visit);
    expect(await dayList(appHeaders)).toContain(sessionA);
    expect(await dayList(appHeaders)).not.toContain(sessionB);
  });

  it('shows each partner only the sessions created through it', async () => {
    expect((await status(yViaA.headers, sessionA)).status).toBe(200);
    expect((await status(yViaB.headers, sessionB)).status).toBe(200);
    expect(await status(yViaA.headers, sessionB)).toMatchObject({ status: 404, json: { code: 404 } });
    expect(await status(yViaB.headers, sessionA)).toMatchObject({ status: 404, json: { code: 404 } });
    expect(await dayList(yViaA.headers)).toEqual(expect.arrayContaining([sessionA]));
    expect(await dayList(yViaA.headers)).not.toContain(sessionB);
    expect(await dayList(yViaB.headers)).toEqual([sessionB]);
    expect(await adminList(keyA)).toContain(sessionA);
    expect(await adminList(keyA)).not.toContain(sessionB);
    expect(await adminList(keyB)).toEqual([sessionB]);
    expect((await call(getAdminSession, { params: { id: sessionA }, key: keyB })).status).toBe(404);
  });

  it("disables the provider for one partner only: the other partner's login, tokens and clinician app keep working", async () => {
    const dis = await call(disableProvider, { params: { partner_id: partnerB.partnerId, provider_id: yId }, key: keyB });
    expect(dis.status).toBe(200);
    expect(dis.json).toMatchObject({ provider_id: yId, disabled: true });
    // Partner B: refused.
    expect(await login(partnerB, yEmail)).toEqual({ status: 403, json: { code: 403, message: 'provider is disabled' } });
    expect((await status(yViaB.headers, sessionB)).status).toBe(403);
    // Partner A: untouched.
    expect((await login(partnerA, yEmail)).status).toBe(200);
    expect(await status(yViaA.headers, sessionA)).toEqual({ status: 200, json: { status: 'created' } });
    expect((await appToken(userA)).status).toBe(200);
    expect((await providersOf(partnerA.partnerId)).find((p) => p.provider_id === yId)!.disabled).toBe(false);
    expect((await providersOf(partnerB.partnerId)).find((p) => p.provider_id === yId)!.disabled).toBe(true);
    // B cannot reach A's link at all.
    expect((await call(disableProvider, { params: { partner_id: partnerA.partnerId, provider_id: yId }, key: keyB })).status).toBe(404);

    // The other way round: A disables its link; the clinician app (bound to A) stops, B's link is B's to decide.
    expect((await call(enableProvider, { params: { partner_id: partnerB.partnerId, provider_id: yId }, key: keyB })).status).toBe(200);
    expect((await call(disableProvider, { params: { partner_id: partnerA.partnerId, provider_id: yId }, key: keyA })).status).toBe(200);
    expect((await login(partnerA, yEmail)).status).toBe(403);
    expect(await appToken(userA)).toEqual({ status: 403, json: { code: 403, message: 'provider is disabled' } });
    expect((await login(partnerB, yEmail)).status).toBe(200);
    expect((await status(yViaB.headers, sessionB)).status).toBe(200);
    expect((await call(enableProvider, { params: { partner_id: partnerA.partnerId, provider_id: yId }, key: keyA })).status).toBe(200);
    expect((await appToken(userA)).status).toBe(200);
  });
});

describe("a partner admin cannot change its own partner's access level, type or trust", () => {
  let readonly: TestPartner;
  let key: string;

  beforeAll(async () => {
    readonly = await createTestPartner(server.baseUrl, { access_level: 'READONLY' });
    key = await partnerKey(readonly.partnerId);
  });

  it('answers 403 naming each field, and leaves the partner as it was', async () => {
    const attempts: Record<string, unknown> = {
      access_level: 'FULL',
      type: 'BEARER',
      issuer: 'https://evil.example',
      audience: 'anyone',
      jwks_uri: 'https://evil.example/jwks.json',
      jwks: { keys: [{ ...readonly.publicJwk, kid: 'attacker-key' }] },
      email_claim: 'sub',
      provider_id_pattern: '^.*$',
    };
    const before = (await call(getPartner, { params: { partner_id: readonly.partnerId }, key })).json;
    for (const [field, value] of Object.entries(attempts)) {
      const r = await call(updatePartner, { params: { partner_id: readonly.partnerId }, key, body: { webhook_url: 'https://hooks.partner.example/x', [field]: value } });
      expect(r.status, field).toBe(403);
      expect(r.json, field).toEqual({ code: 403, message: expect.stringMatching(new RegExp(`^${field}: only service admins`)) });
    }
    expect((await call(getPartner, { params: { partner_id: readonly.partnerId }, key })).json).toEqual(before);
  });

  it('lets it change its webhook URL (with the other fields sent back unchanged) and rotate the secret', async () => {
    const before = (await call(getPartner, { params: { partner_id: readonly.partnerId }, key })).json;
    const { partner_id: _id, created_at: _c, updated_at: _u, ...form } = before;
    const r = await call(updatePartner, { params: { partner_id: readonly.partnerId }, key, body: { ...form, webhook_url: 'https://hooks.partner.example/notify' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ webhook_url: 'https://hooks.partner.example/notify', access_level: 'READONLY' });
    const rotated = await call(rotateWebhookSecret, { params: { partner_id: readonly.partnerId }, key });
    expect(rotated.status).toBe(200);
    expect(rotated.json.webhook_secret).toEqual(expect.any(String));
    expect(rotated.json.webhook_secret).not.toBe(readonly.webhookSecret);
  });

  it('leaves access level to service admins', async () => {
    const r = await call(updatePartner, { params: { partner_id: readonly.partnerId }, body: { access_level: 'FULL' } });
    expect(r.status).toBe(200);
    expect(r.json.access_level).toBe('FULL');
  });
});
