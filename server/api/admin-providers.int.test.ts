/**
 * The console's provider and session tools (issue 31 item 8) on the real server: adding a provider to a
 * partner, "Last login" after a clinician signs in, sessions filtered by provider name or email and by
 * status, and a partner admin kept to what it may change.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { adminFetch, createTestPartner, type TestPartner } from '../test/partners';

let server: TestServer;
const PASSWORD = 'correct-horse-battery';
const uid = () => crypto.randomUUID().slice(0, 8);

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await server?.stop();
});

async function call(method: string, path: string, opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const res = opts.key
    ? await fetch(`${server.baseUrl}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.key}` }, body })
    : opts.headers
      ? await fetch(`${server.baseUrl}${path}`, { method, headers: { 'content-type': 'application/json', ...opts.headers }, body })
      : await adminFetch(server.baseUrl, path, { method, body });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function partnerKey(partnerId: string): Promise<string> {
  const r = await call('POST', '/api/admin/v1/api-keys', { body: { name: `admin of ${partnerId}`, partner_id: partnerId } });
  expect(r.status).toBe(201);
  return r.json.key as string;
}

/** A v1 service token for a provider the console added: the partner's login finds it by its email. */
async function login(partner: TestPartner, email: string): Promise<Record<string, string>> {
  const r = await call('POST', '/api/v1/auth/login', { headers: {}, body: { partner_id: partner.partnerId, partner_token: await partner.token({ email }) } });
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
    const r = await call('POST', `/api/admin/v1/partners/${partner.partnerId}/providers`, {
      body: { name: 'Dr Zelda Okafor', email, specialty: 'CARDIOLOGY', organization_external_id: 'org-heart' },
    });
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
    const listed = await call('GET', `/api/admin/v1/partners/${partner.partnerId}/providers?q=okafor`);
    expect(listed.json.providers.map((p: any) => p.provider_id)).toEqual([r.json.provider_id]);
    // The same person registering through the partner is already linked; logging in works at once.
    const token = await partner.token({ email: email.toLowerCase() });
    const reg = await call('POST', '/api/v1/auth/register', { headers: {}, body: { partner_id: partner.partnerId, partner_token: token, provider_name: 'Z', provider_org_id: 'org-heart' } });
    expect(reg.status).toBe(409);
    await login(partner, email.toLowerCase());
    const after = await call('GET', `/api/admin/v1/partners/${partner.partnerId}/providers?q=okafor`);
    expect(after.json.providers[0].last_login_at).toEqual(expect.any(String));

    const audit = await call('GET', `/api/admin/v1/audit?partner_id=${partner.partnerId}`);
    expect(audit.json.entries.find((e: any) => e.action === 'provider.create')).toMatchObject({ target_id: r.json.provider_id });
  });

  it('answers 409 for a provider already linked, and 400 naming the field for bad input', async () => {
    const email = `dup.${uid()}@clinic.example`;
    const path = `/api/admin/v1/partners/${partner.partnerId}/providers`;
    expect((await call('POST', path, { body: { name: 'Dr Dup', email } })).status).toBe(201);
    expect(await call('POST', path, { body: { name: 'Dr Dup again', email } })).toEqual({
      status: 409,
      json: { code: 409, message: `email: this provider is already registered with partner ${partner.partnerId}` },
    });
    const bad = await call('POST', path, { body: { name: '  ', email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^(name|email): /);
    const pid = await call('POST', path, { body: { name: 'Dr P', email: `p.${uid()}@clinic.example`, provider_id: 'NPI-123456' } });
    expect(pid).toEqual({ status: 400, json: { code: 400, message: 'provider_id: STANDARD partners identify providers by email; leave provider_id out' } });
    expect((await call('POST', '/api/admin/v1/partners/no-such-partner/providers', { body: { name: 'X', email: `x.${uid()}@e.example` } })).status).toBe(404);
  });

  it('needs a provider_id matching the pattern for a BEARER partner', async () => {
    const bearer = await createTestPartner(server.baseUrl, { type: 'BEARER' });
    const path = `/api/admin/v1/partners/${bearer.partnerId}/providers`;
    const email = `b.${uid()}@clinic.example`;
    expect((await call('POST', path, { body: { name: 'Dr B', email } })).json).toEqual({ code: 400, message: 'provider_id: is required for BEARER partners' });
    expect((await call('POST', path, { body: { name: 'Dr B', email, provider_id: 'nope' } })).json.message).toMatch(/^provider_id: does not match/);
    const ok = await call('POST', path, { body: { name: 'Dr B', email, provider_id: 'NPI-424242' } });
    expect(ok.status).toBe(201);
    expect(ok.json.partner_provider_id).toBe('NPI-424242');
  });

  it("lets a partner admin add to its own partner only, and never link another partner's provider", async () => {
    const other = await createTestPartner(server.baseUrl);
    const key = await partnerKey(partner.partnerId);
    const email = `own.${uid()}@clinic.example`;
    expect((await call('POST', `/api/admin/v1/partners/${partner.partnerId}/providers`, { key, body: { name: 'Dr Own', email } })).status).toBe(201);
    expect((await call('POST', `/api/admin/v1/partners/${other.partnerId}/providers`, { key, body: { name: 'Dr Other', email: `o.${uid()}@e.example` } })).status).toBe(404);
    // Known through another partner: a service admin links it, a partner admin may not.
    const shared = `shared.${uid()}@clinic.example`;
    expect((await call('POST', `/api/admin/v1/partners/${other.partnerId}/providers`, { body: { name: 'Dr Shared', email: shared } })).status).toBe(201);
    expect((await call('POST', `/api/admin/v1/partners/${partner.partnerId}/providers`, { key, body: { name: 'Dr Shared', email: shared } })).status).toBe(409);
    const linked = await call('POST', `/api/admin/v1/partners/${partner.partnerId}/providers`, { body: { name: 'Dr Shared', email: shared } });
    expect(linked.status).toBe(201);
  });
});

describe("a clinician's sign-in", () => {
  it("sets the provider's Last login in the console", async () => {
    const partner = await createTestPartner(server.baseUrl);
    const email = `signin.${uid()}@clinic.example`;
    const user = await call('POST', '/api/admin/v1/users', { body: { email, password: PASSWORD, role: 'clinician', partner_id: partner.partnerId, name: 'Dr Sign In' } });
    expect(user.status, JSON.stringify(user.json)).toBe(201);
    const before = await call('GET', `/api/admin/v1/partners/${partner.partnerId}/providers?q=${encodeURIComponent(email)}`);
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

    const after = await call('GET', `/api/admin/v1/partners/${partner.partnerId}/providers?q=${encodeURIComponent(email)}`);
    expect(after.json.providers[0].last_login_at).toEqual(expect.any(String));
    const users = await call('GET', `/api/admin/v1/users`);
    const row = users.json.users.find((u: any) => u.email === email);
    expect(after.json.providers[0].last_login_at).toBe(row.last_login_at);
  });
});

describe('sessions filtered by provider and status', () => {
  it('matches part of the name or email, case-insensitively, with the status, inside the scope', async () => {
    const partner = await createTestPartner(server.baseUrl);
    const tag = uid();
    const add = (name: string, email: string) => call('POST', `/api/admin/v1/partners/${partner.partnerId}/providers`, { body: { name, email } });
    expect((await add(`Dr Ines Marchetti ${tag}`, `ines.${tag}@north.example`)).status).toBe(201);
    expect((await add(`Dr Tomas Lindqvist ${tag}`, `tomas.${tag}@south.example`)).status).toBe(201);
    const ines = await login(partner, `ines.${tag}@north.example`);
    const tomas = await login(partner, `tomas.${tag}@south.example`);
    const create = async (h: Record<string, string>) => (await call('POST', '/api/v1/ambient/session/create', { headers: h, body: {} })).json.ambient_session_id as string;
    const i1 = await create(ines);
    const t1 = await create(tomas);
    const i2 = await create(ines);
    expect((await call('POST', `/api/v1/ambient/session/${i2}/end`, { headers: ines })).status).toBeLessThan(300);

    const ids = async (query: string, key?: string) => {
      const r = await call('GET', `/api/admin/v1/sessions?${query}`, { key });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return (r.json.sessions as Array<{ id?: string; ambient_session_id?: string }>).map((s) => s.ambient_session_id ?? s.id);
    };
    expect(await ids(`provider=MARCHETTI`)).toEqual([i2, i1]);
    expect(await ids(`provider=${encodeURIComponent(`south.example`)}&partner_id=${partner.partnerId}`)).toEqual([t1]);
    expect(await ids(`provider=marchetti&status=created`)).toEqual([i1]);
    expect(await ids(`provider=lindqvist&status=completed`)).toEqual([]);
    // LIKE wildcards are literal.
    expect(await ids(`provider=%25&partner_id=${partner.partnerId}`)).toEqual([]);
    const empty = await call('GET', '/api/admin/v1/sessions?provider=%20');
    expect(empty.status).toBe(400);
    expect(empty.json.message).toMatch(/provider: must not be empty/);
    // Another partner's admin finds none of them by name.
    const otherKey = await partnerKey((await createTestPartner(server.baseUrl)).partnerId);
    expect(await ids('provider=marchetti', otherKey)).toEqual([]);
  });
});

describe('a partner admin changes only what it may', () => {
  it('cannot rename its partner, and still changes its webhook', async () => {
    const partner = await createTestPartner(server.baseUrl);
    const key = await partnerKey(partner.partnerId);
    const before = (await call('GET', `/api/admin/v1/partners/${partner.partnerId}`, { key })).json;
    const rename = await call('PATCH', `/api/admin/v1/partners/${partner.partnerId}`, { key, body: { name: 'Renamed by its admin' } });
    expect(rename).toEqual({ status: 403, json: { code: 403, message: expect.stringMatching(/^name: only service admins/) } });
    const hook = await call('PATCH', `/api/admin/v1/partners/${partner.partnerId}`, { key, body: { name: before.name, webhook_url: 'https://hooks.partner.example/n' } });
    expect(hook.status).toBe(200);
    expect(hook.json).toMatchObject({ name: before.name, webhook_url: 'https://hooks.partner.example/n' });
    // A service admin renames it.
    expect((await call('PATCH', `/api/admin/v1/partners/${partner.partnerId}`, { body: { name: 'Renamed by the service' } })).json.name).toBe('Renamed by the service');
  });
});
