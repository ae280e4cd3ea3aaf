/**
 * The console's provider and session tools (issue 31 item 8) on the real server: adding a provider to a
 * partner, "Last login" after a clinician signs in, sessions filtered by provider name or email and by
 * status, and a partner admin kept to what it may change.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, type TestPartner } from '../test/partners';
import { testApi, type Caller, type TestCallInput } from '../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { createApiKey } from '@/lib/contracts/routes/admin-api-keys';
import { login as loginRoute, register } from '@/lib/contracts/routes/auth';
import { createPartnerProvider, listPartnerProviders } from '@/lib/contracts/routes/admin-providers';
import { listAudit } from '@/lib/contracts/routes/admin-audit';
import { createUser, listUsers } from '@/lib/contracts/routes/admin-users';
import { createSession, endSession } from '@/lib/contracts/routes/sessions';
import { listAdminSessions } from '@/lib/contracts/routes/admin-sessions';
import { getPartner, updatePartner } from '@/lib/contracts/routes/admin-partners';

let server: TestServer;
const PASSWORD = 'correct-horse-battery';
const uid = () => crypto.randomUUID().slice(0, 8);

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await server?.stop();
});

/** As the admin key, a partner-scoped admin key (`key`), or other headers. */
async function call<C extends RouteContract>(contract: C, input: TestCallInput<C> & { key?: string } = {} as never) {
  const { key, headers, ...rest } = input;
  const who: Caller = key ? { 'content-type': 'application/json', authorization: `Bearer ${key}` } : headers ? { 'content-type': 'application/json', ...headers } : 'admin';
  const r = await testApi(server, who).call(contract, rest as never);
  return { status: r.status, json: r.body };
}

async function partnerKey(partnerId: string): Promise<string> {
  const r = await call(createApiKey, { body: { name: `admin of ${partnerId}`, partner_id: partnerId } });
  expect(r.status).toBe(201);
  return r.json.key as string;
}

/** A v1 service token for a provider the console added: the partner's login finds it by its email. */
async function login(partner: TestPartner, email: string): Promise<Record<string, string>> {
  const r = await call(loginRoute, { headers: {}, body: { partner_id: partner.partnerId, partner_token: await partner.token({ email }) } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return { sdp_service_token: r.json.service_token };
}

describe('adding a provider from the console', () => {
  let partner: TestPartner;
  beforeAll(async () => {
    partner = await createTestPartner(server.baseUrl);
  });

  it('creates and links it with the identity register would give, so the partner login finds it', async () => {
    const email = `Zelda.${uid()}@Clinic.example`;
    const r = await call(createPartnerProvider, { params: { partner_id: partner.partnerId }, body: { name: 'Dr Zelda Okafor', email, specialty: 'CARDIOLOGY', organization_external_id: 'org-heart' } });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json).toMatchObject({
      name: 'Dr Zelda Okafor',
      email: email.toLowerCase(),
      specialty: 'CARDIOLOGY',
      organization_external_id: 'org-heart',
      partner_provider_id: null,
      link_state: 'linked',
      last_login_at: null,
      disabled: false,
    });
    const listed = await call(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { q: 'okafor' } });
    expect(listed.json.providers.map((p: any) => p.provider_id)).toEqual([r.json.provider_id]);
    // The same person registering through the partner is already linked; logging in works at once.
    const token = await partner.token({ email: email.toLowerCase() });
    const reg = await call(register, { headers: {}, body: { partner_id: partner.partnerId, partner_token: token, provider_name: 'Z', provider_org_id: 'org-heart' } });
    expect(reg.status).toBe(409);
    await login(partner, email.toLowerCase());
    const after = await call(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { q: 'okafor' } });
    expect(after.json.providers[0].last_login_at).toEqual(expect.any(String));

    const audit = await call(listAudit, { query: { partner_id: partner.partnerId } });
    expect(audit.json.entries.find((e: any) => e.action === 'provider.create')).toMatchObject({ target_id: r.json.provider_id });
  });

  it('answers 409 for a provider already linked, and 400 naming the field for bad input', async () => {
    const email = `dup.${uid()}@clinic.example`;
    const path = { partner_id: partner.partnerId };
    expect((await call(createPartnerProvider, { params: path, body: { name: 'Dr Dup', email } })).status).toBe(201);
    expect(await call(createPartnerProvider, { params: path, body: { name: 'Dr Dup again', email } })).toEqual({
      status: 409,
      json: { code: 409, message: `email: this provider is already registered with partner ${partner.partnerId}` },
    });
    const bad = await call(createPartnerProvider, { params: path, body: { name: '  ', email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^(name|email): /);
    const pid = await call(createPartnerProvider, { params: path, body: { name: 'Dr P', email: `p.${uid()}@clinic.example`, provider_id: 'NPI-123456' } });
    expect(pid).toEqual({ status: 400, json: { code: 400, message: 'provider_id: STANDARD partners identify providers by email; leave provider_id out' } });
    expect((await call(createPartnerProvider, { params: { partner_id: 'no-such-partner' }, body: { name: 'X', email: `x.${uid()}@e.example` } })).status).toBe(404);
  });

  it('needs a provider_id matching the pattern for a BEARER partner', async () => {
    const bearer = await createTestPartner(server.baseUrl, { type: 'BEARER' });
    const path = { partner_id: bearer.partnerId };
    const email = `b.${uid()}@clinic.example`;
    expect((await call(createPartnerProvider, { params: path, body: { name: 'Dr B', email } })).json).toEqual({ code: 400, message: 'provider_id: is required for BEARER partners' });
    expect((await call(createPartnerProvider, { params: path, body: { name: 'Dr B', email, provider_id: 'nope' } })).json.message).toMatch(/^provider_id: does not match/);
    const ok = await call(createPartnerProvider, { params: path, body: { name: 'Dr B', email, provider_id: 'NPI-424242' } });
    expect(ok.status).toBe(201);
    expect(ok.json.partner_provider_id).toBe('NPI-424242');
  });

  it("lets a partner admin add to its own partner only, and never link another partner's provider", async () => {
    const other = await createTestPartner(server.baseUrl);
    const key = await partnerKey(partner.partnerId);
    const email = `own.${uid()}@clinic.example`;
    expect((await call(createPartnerProvider, { params: { partner_id: partner.partnerId }, key, body: { name: 'Dr Own', email } })).status).toBe(201);
    expect((await call(createPartnerProvider, { params: { partner_id: other.partnerId }, key, body: { name: 'Dr Other', email: `o.${uid()}@e.example` } })).status).toBe(404);
    // Known through another partner: a service admin links it, a partner admin may not.
    const shared = `shared.${uid()}@clinic.example`;
    expect((await call(createPartnerProvider, { params: { partner_id: other.partnerId }, body: { name: 'Dr Shared', email: shared } })).status).toBe(201);
    expect((await call(createPartnerProvider, { params: { partner_id: partner.partnerId }, key, body: { name: 'Dr Shared', email: shared } })).status).toBe(409);
    const linked = await call(createPartnerProvider, { params: { partner_id: partner.partnerId }, body: { name: 'Dr Shared', email: shared } });
    expect(linked.status).toBe(201);
  });
});

describe("a clinician's sign-in", () => {
  it("sets the provider's Last login in the console", async () => {
    const partner = await createTestPartner(server.baseUrl);
    const email = `signin.${uid()}@clinic.example`;
    const user = await call(createUser, { body: { email, password: PASSWORD, role: 'clinician', partner_id: partner.partnerId, name: 'Dr Sign In' } });
    expect(user.status, JSON.stringify(user.json)).toBe(201);
    const before = await call(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { q: email } });
    expect(before.json.providers[0].last_login_at).toBeNull();

    const csrfRes = await fetch(`${server.baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const res = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfRes.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') },
      body: new URLSearchParams({ email, password: PASSWORD, csrfToken, callbackUrl: `${server.baseUrl}/visits` }),
    });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(true);

    const after = await call(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { q: email } });
    expect(after.json.providers[0].last_login_at).toEqual(expect.any(String));
    const users = await call(listUsers);
    const row = users.json.users.find((u: any) => u.email === email);
    expect(after.json.providers[0].last_login_at).toBe(row.last_login_at);
  });
});

describe('sessions filtered by provider and status', () => {
  it('matches part of the name or email, case-insensitively, with the status, inside the scope', async () => {
    const partner = await createTestPartner(server.baseUrl);
    const tag = uid();
    const add = (name: string, email: string) => call(createPartnerProvider, { params: { partner_id: partner.partnerId }, body: { name, email } });
    expect((await add(`Dr Ines Marchetti ${tag}`, `ines.${tag}@north.example`)).status).toBe(201);
    expect((await add(`Dr Tomas Lindqvist ${tag}`, `tomas.${tag}@south.example`)).status).toBe(201);
    const ines = await login(partner, `ines.${tag}@north.example`);
    const tomas = await login(partner, `tomas.${tag}@south.example`);
    const create = async (h: Record<string, string>) => (await call(createSession, { headers: h, body: {} })).json.ambient_session_id as string;
    const i1 = await create(ines);
    const t1 = await create(tomas);
    const i2 = await create(ines);
    expect((await call(endSession, { params: { ambient_session_id: i2 }, headers: ines })).status).toBeLessThan(300);

    const ids = async (query: Record<string, string>, key?: string) => {
      const r = await call(listAdminSessions, { query, key });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return (r.json.sessions as Array<{ id?: string; ambient_session_id?: string }>).map((s) => s.ambient_session_id ?? s.id);
    };
    expect(await ids({ provider: 'MARCHETTI' })).toEqual([i2, i1]);
    expect(await ids({ provider: 'south.example', partner_id: partner.partnerId })).toEqual([t1]);
    expect(await ids({ provider: 'marchetti', status: 'created' })).toEqual([i1]);
    expect(await ids({ provider: 'lindqvist', status: 'completed' })).toEqual([]);
    // LIKE wildcards are literal.
    expect(await ids({ provider: '%', partner_id: partner.partnerId })).toEqual([]);
    const empty = await call(listAdminSessions, { query: { provider: ' ' } });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toMatch(/provider: must not be empty/);
    // Another partner's admin finds none of them by name.
    const otherKey = await partnerKey((await createTestPartner(server.baseUrl)).partnerId);
    expect(await ids({ provider: 'marchetti' }, otherKey)).toEqual([]);
  });
});

describe('a partner admin changes only what it may', () => {
  it('cannot rename its partner, and still changes its webhook', async () => {
    const partner = await createTestPartner(server.baseUrl);
    const key = await partnerKey(partner.partnerId);
    const before = (await call(getPartner, { params: { partner_id: partner.partnerId }, key })).json;
    const rename = await call(updatePartner, { params: { partner_id: partner.partnerId }, key, body: { name: 'Renamed by its admin' } });
    expect(rename).toEqual({ status: 403, json: { code: 403, message: expect.stringMatching(/^name: only service admins/) } });
    const hook = await call(updatePartner, { params: { partner_id: partner.partnerId }, key, body: { name: before.name, webhook_url: 'https://hooks.partner.example/n' } });
    expect(hook.status).toBe(200);
    expect(hook.json).toMatchObject({ name: before.name, webhook_url: 'https://hooks.partner.example/n' });
    // A service admin renames it.
    expect((await call(updatePartner, { params: { partner_id: partner.partnerId }, body: { name: 'Renamed by the service' } })).json.name).toBe('Renamed by the service');
  });
});
