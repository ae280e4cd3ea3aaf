import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner } from '../test/partners';
import { infoRoute, testApi, unchecked } from '../test/api-client';
import { createUser as createUserRoute } from '@/lib/contracts/routes/admin-users';
import { getClinicianToken, listProviderSessions, updateNoteSection } from '@/lib/contracts/routes/app';
import { createSession as createSessionRoute, setSessionContext } from '@/lib/contracts/routes/sessions';

let server: TestServer;
let partner: TestPartner;
const PASSWORD = 'clinician-Passw0rd!';

/** Signs a console user in through next-auth's credentials endpoint, as the login form does. */
async function signIn(email: string, password: string): Promise<string> {
  const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const res = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${server.baseUrl}/visits` }),
  });
  jar.push(...res.headers.getSetCookie().map((c) => c.split(';')[0]!));
  expect(jar.some((c) => /session-token=/.test(c))).toBe(true);
  return jar.join('; ');
}

async function createUser(body: Record<string, unknown>) {
  const res = await testApi(server.baseUrl, 'admin').send(createUserRoute, { body: unchecked({ password: PASSWORD, ...body }) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; provider_id: string | null };
}

async function clinicianHeaders(email: string) {
  const cookie = await signIn(email, PASSWORD);
  const res = await testApi(server.baseUrl, { cookie }).send(getClinicianToken);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as { service_token: string; provider_id: string | null; expires_at: string };
  return { body, headers: { sdp_service_token: body.service_token, 'content-type': 'application/json' } };
}

async function createSession(headers: Record<string, string>, chief?: string) {
  const res = await testApi(server.baseUrl, headers).send(createSessionRoute, { body: {} });
  expect(res.status).toBe(201);
  const { ambient_session_id } = (await res.json()) as { ambient_session_id: string };
  if (chief) {
    const ctx = await testApi(server.baseUrl, headers).send(setSessionContext, { params: { ambient_session_id }, body: { visit: { chief_complaint: chief, visit_type: 'NEW_PATIENT' } } });
    expect(ctx.status).toBeLessThan(300);
  }
  return ambient_session_id;
}

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startServer();
  partner = await createTestPartner(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
});

describe('GET /api/app/token', () => {
  it('mints a service token for a signed-in clinician that the v1 API accepts', async () => {
    await createUser({ email: 'dr.token@clinic.example', role: 'clinician', partner_id: partner.partnerId });
    const { body, headers } = await clinicianHeaders('dr.token@clinic.example');
    expect(body.provider_id).toBeNull(); // STANDARD partner: no sdp_provider_id needed
    const ttl = Date.parse(body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(3500_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
    const info = await testApi(server.baseUrl, headers).send(infoRoute('visit-types'));
    expect(info.status).toBe(200);
    expect(((await info.json()) as { visit_types: unknown[] }).visit_types.length).toBeGreaterThan(0);
  });

  it('answers 401 without a console session and 403 for a non-clinician', async () => {
    const anon = await testApi(server.baseUrl).send(getClinicianToken);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toEqual({ code: 401, message: 'sign in first' });
    await createUser({ email: 'padmin@clinic.example', role: 'partner_admin', partner_id: partner.partnerId });
    const cookie = await signIn('padmin@clinic.example', PASSWORD);
    const res = await testApi(server.baseUrl, { cookie }).send(getClinicianToken);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/clinician/);
  });
});

describe('GET /api/v1/ambient/sessions', () => {
  it("lists the provider's sessions of the day, newest first, and nobody else's", async () => {
    await createUser({ email: 'dr.list@clinic.example', role: 'clinician', partner_id: partner.partnerId });
    const { headers } = await clinicianHeaders('dr.list@clinic.example');
    const first = await createSession(headers, 'cough for two weeks');
    const second = await createSession(headers);
    const other = await registerAndLogin(server.baseUrl, partner);
    const foreign = await createSession(other.headers, 'not mine');

    const res = await testApi(server.baseUrl, headers).send(listProviderSessions, { query: { date: today() } });
    expect(res.status).toBe(200);
    const { sessions } = (await res.json()) as { sessions: Array<Record<string, unknown>> };
    expect(sessions.map((s) => s.ambient_session_id)).toEqual([second, first]);
    expect(sessions[1]).toMatchObject({ status: 'created', chief_complaint: 'cough for two weeks', visit_type: 'NEW_PATIENT', audio_ms: 0 });
    expect(sessions[0]).toMatchObject({ chief_complaint: null, visit_type: null });
    expect(typeof sessions[0]!.encounter_id).toBe('string');
    expect(sessions.some((s) => s.ambient_session_id === foreign)).toBe(false);

    const theirs = (await (await testApi(server.baseUrl, other.headers).send(listProviderSessions, { query: { date: today() } })).json()) as {
      sessions: Array<{ ambient_session_id: string }>;
    };
    expect(theirs.sessions.map((s) => s.ambient_session_id)).toEqual([foreign]);
  });

  it('takes the day in the caller time zone', async () => {
    await createUser({ email: 'dr.tz@clinic.example', role: 'clinician', partner_id: partner.partnerId });
    const { headers } = await clinicianHeaders('dr.tz@clinic.example');
    const id = await createSession(headers);
    const list = async (query: Record<string, string>) =>
      ((await (await testApi(server.baseUrl, headers).send(listProviderSessions, { query })).json()) as { sessions: Array<{ ambient_session_id: string }> }).sessions.map(
        (s) => s.ambient_session_id,
      );
    const now = new Date();
    // Whatever UTC time it is, the local day 14 hours east is today or tomorrow in UTC terms; the
    // session appears under exactly that local date.
    const east = new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
    expect(await list({ date: east, utc_offset_minutes: '840' })).toEqual([id]);
    const yesterday = new Date(now.getTime() - 24 * 3600_000).toISOString().slice(0, 10);
    expect(await list({ date: yesterday })).toEqual([]);
  });

  it('names the bad query field', async () => {
    const other = await registerAndLogin(server.baseUrl, partner);
    for (const [q, field] of [
      [{ date: '2026-02-30' }, 'date'],
      [{}, 'date'],
      [{ date: today(), utc_offset_minutes: '9999' }, 'utc_offset_minutes'],
    ] as const) {
      const res = await testApi(server.baseUrl, other.headers).send(listProviderSessions, { query: q });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: number; message: string };
      expect(body.code).toBe(400);
      expect(body.message).toContain(field);
    }
    const anon = await testApi(server.baseUrl).send(listProviderSessions, { query: { date: today() } });
    expect(anon.status).toBe(401);
  });
});

describe('PUT /api/v1/ambient/session/{id}/content/sections/{loinc}', () => {
  it('refuses before the note exists, hides other providers’ sessions, and validates the path and body', async () => {
    const mine = await registerAndLogin(server.baseUrl, partner);
    const theirs = await registerAndLogin(server.baseUrl, partner);
    const id = await createSession(mine.headers);
    const put = (h: Record<string, string>, sid: string, loinc: string, body: unknown) =>
      testApi(server.baseUrl, h).send(updateNoteSection, { params: { ambient_session_id: sid, loinc }, body: unchecked(body) });

    const early = await put(mine.headers, id, '10164-2', { content: 'x' });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { message: string }).message).toMatch(/status is created/);

    const foreign = await put(theirs.headers, id, '10164-2', { content: 'x' });
    expect(foreign.status).toBe(404);

    const badLoinc = await put(mine.headers, id, 'HPI', { content: 'x' });
    expect(badLoinc.status).toBe(400);
    expect(((await badLoinc.json()) as { message: string }).message).toContain('loinc');

    const badBody = await put(mine.headers, id, '10164-2', { content: 42 });
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { message: string }).message).toContain('content');

    const ro = await createTestPartner(server.baseUrl, { access_level: 'READONLY' });
    const reader = await registerAndLogin(server.baseUrl, ro);
    expect((await put(reader.headers, id, '10164-2', { content: 'x' })).status).toBe(403);
  });
});
