/**
 * Security properties end to end against the real server: service tokens forged with the service's own
 * key but wrong claims (the partner-token attack set lives in server/api/auth.int.test.ts), the verified-
 * token cache honouring expiry, a cross-tenant matrix over every session resource, READONLY and revoked
 * admin keys, signed recording URLs, auth rate limiting, security headers on API and pages, webhook SSRF,
 * and no PHI in the logs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, openTestDatabase, startServer, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../partners';
import { TestSocket } from '../ws-client';
import { startTestReceiver, type TestReceiver } from '../../webhooks/testing/receiver';
import { infoRoute, readReply, testApi, unchecked, type CallArgs } from '../api-client';
import type { RouteContract } from '@/lib/api/contract';
import { createSession, getSessionStatus, listRecordings, setSessionContext } from '@/lib/contracts/routes/sessions';
import { getJwks, getOpenApiDocument } from '@/lib/contracts/routes/meta';
import { createApiKey, revokeApiKey } from '@/lib/contracts/routes/admin-api-keys';
import { createPartner, listPartners } from '@/lib/contracts/routes/admin-partners';
import { login, register } from '@/lib/contracts/routes/auth';
import { sendTestWebhook } from '@/lib/contracts/routes/webhooks';
import { searchSessions, updatePatientIdentity } from '@/lib/contracts/routes/workflow';
import { rewriteSelection } from '@/lib/contracts/routes/rewrite';
import { ingestCkgBundle } from '@/lib/contracts/routes/ckg';

let server: TestServer;
let partner: TestPartner;
let owner: TestProvider;
let sameOrgOther: TestProvider;
let otherPartnerDr: TestProvider;
let readonlyDr: TestProvider;
let sessionId: string;
let ops: { method: string; path: string }[] = [];

const PHI = {
  complaint: 'Zanzibarite migraine after falconry',
  patientId: 'MRN-QUOKKA-7731',
  rewrite: 'Patient reports xylophonic tinnitus since Tuesday',
  name: 'Quillfeather Ostrogoth',
  mrn: 'MRN-NARWHAL-4410',
};

async function call<C extends RouteContract>(who: Record<string, string>, contract: C, ...input: CallArgs<C>): Promise<{ status: number; json: any; headers: Headers }> {
  const r = await testApi(server, who).call(contract, ...input);
  return { status: r.status, json: r.body, headers: r.headers };
}

/** By an operation's documented path (the OpenAPI document's, filled in), for the matrices over every operation. */
async function callPath(who: Record<string, string>, method: string, p: string, body?: unknown): Promise<{ status: number; json: any }> {
  // raw fetch: the path is the OpenAPI document's own, so every documented operation is covered
  const r = await readReply(await fetch(`${server.baseUrl}${p}`, { method, headers: who, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: r.status, json: r.body };
}

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '8', SPEECH_ENGINE: 'none', WEBHOOK_ALLOW_PRIVATE: 'false', WEBHOOK_RETRY_SCHEDULE: '1' } });
  partner = await createTestPartner(server.baseUrl);
  owner = await registerAndLogin(server.baseUrl, partner);
  sameOrgOther = await registerAndLogin(server.baseUrl, partner);
  otherPartnerDr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  readonlyDr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl, { access_level: 'READONLY' }));
  const created = await call(owner.headers, createSession, { body: {} });
  expect(created.status).toBe(201);
  sessionId = created.json.ambient_session_id;
  const doc = (await call({}, getOpenApiDocument)).json as { paths: Record<string, Record<string, unknown>> };
  for (const [p, item] of Object.entries(doc.paths)) {
    if (!p.includes('{ambient_session_id}')) continue;
    for (const m of Object.keys(item)) if (['get', 'post', 'put', 'patch', 'delete'].includes(m)) ops.push({ method: m.toUpperCase(), path: p });
  }
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

async function serviceKey(): Promise<{ key: CryptoKey | Uint8Array; kid: string }> {
  const jwk = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'keys', 'service-signing.jwk.json'), 'utf8')) as JWK;
  const published = (await call({}, getJwks)).json.keys[0] as JWK;
  return { key: await importJWK({ ...jwk, alg: 'ES256' }, 'ES256'), kid: published.kid! };
}

function claimsOf(token: string): { sub: string; pid: string; org: string; iss: string; aud: string } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

describe('service tokens signed with the real key but wrong claims', () => {
  it('rejects a wrong issuer, wrong audience, expired, missing partner claim, and an unknown provider', async () => {
    const { key, kid } = await serviceKey();
    const base = claimsOf(owner.serviceToken);
    const sign = (claims: Record<string, unknown>, opts: { iss?: string; aud?: string; exp?: number } = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer(opts.iss ?? (base.iss as string))
        .setAudience(opts.aud ?? (base.aud as string))
        .setIssuedAt()
        .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
        .sign(key);
    const { sub, pid, org } = base;
    const cases: [string, string][] = [
      ['issuer', await sign({ sub, pid, org }, { iss: 'https://evil.example' })],
      ['audience', await sign({ sub, pid, org }, { aud: 'someone-else' })],
      ['expired', await sign({ sub, pid, org }, { exp: Math.floor(Date.now() / 1000) - 120 })],
      ['no pid', await sign({ sub, org })],
      ['unknown provider', await sign({ sub: crypto.randomUUID(), pid, org })],
      ['other partner', await sign({ sub, pid: 'p-not-linked', org })],
    ];
    for (const [what, token] of cases) {
      const r = await call({ sdp_service_token: token }, getSessionStatus, { params: { ambient_session_id: sessionId } });
      expect(r.status, what).toBe(401);
      expect(r.json, what).toEqual({ code: 401, message: expect.any(String) });
    }
  });

  it('does not keep accepting a cached token once it has expired', async () => {
    const { key, kid } = await serviceKey();
    const base = claimsOf(owner.serviceToken);
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = await new SignJWT({ sub: base.sub, pid: base.pid, org: base.org })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer(base.iss as string)
      .setAudience(base.aud as string)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(key);
    expect((await call({ sdp_service_token: token }, getSessionStatus, { params: { ambient_session_id: sessionId } })).status).toBe(200);
    // jose allows 5 s of clock skew on top of exp; wait past both.
    await new Promise((r) => setTimeout(r, (exp + 6) * 1000 - Date.now()));
    expect((await call({ sdp_service_token: token }, getSessionStatus, { params: { ambient_session_id: sessionId } })).status).toBe(401);
  }, 30_000);
});

describe('cross-tenant matrix over every session resource', () => {
  it('covers the session resources from the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThan(10);
  });

  it('another provider of the same partner and a provider of another partner get 404 everywhere', async () => {
    for (const who of [sameOrgOther, otherPartnerDr]) {
      for (const op of ops) {
        const p = op.path.replace('{ambient_session_id}', sessionId).replace('{loinc}', '10164-2');
        const r = await callPath(who.headers, op.method, p, op.method === 'GET' ? undefined : {});
        // Validation may refuse a body first (400) — but never reveal, or touch, the session.
        expect([400, 404], `${op.method} ${op.path}`).toContain(r.status);
        expect(r.json.code).toBe(r.status);
        if (r.status === 404) expect(r.json.message).toMatch(/not found/);
      }
    }
    expect((await call(owner.headers, getSessionStatus, { params: { ambient_session_id: sessionId } })).json).toEqual({ status: 'created' });
  });

  it('a READONLY partner can read but every session write is 403', async () => {
    const writes = ops.filter((o) => o.method !== 'GET');
    expect(writes.length).toBeGreaterThan(3);
    for (const op of writes) {
      const r = await callPath(readonlyDr.headers, op.method, op.path.replace('{ambient_session_id}', sessionId).replace('{loinc}', '10164-2'), {});
      expect([400, 403], `${op.method} ${op.path}`).toContain(r.status);
    }
    expect((await call(readonlyDr.headers, createSession, { body: {} })).status).toBe(403);
    expect((await call(readonlyDr.headers, infoRoute('loincs'))).status).toBe(200);
  });

  it('a revoked admin API key is refused at once', async () => {
    const created = await testApi(server.baseUrl, 'admin').send(createApiKey, { body: { name: 'soon revoked' } });
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    const bearer = { authorization: `Bearer ${key}` };
    expect((await call(bearer, listPartners)).status).toBe(200);
    expect((await testApi(server.baseUrl, 'admin').send(revokeApiKey, { params: { id } })).status).toBeLessThan(300);
    const after = await call(bearer, listPartners);
    expect(after.status).toBe(401);
    expect(after.json).toEqual({ code: 401, message: expect.any(String) });
  });
});

describe('signed recording URLs', () => {
  it('serve the audio when intact, and refuse a tampered signature, id or expiry', async () => {
    const created = await call(owner.headers, createSession, { body: {} });
    const id = created.json.ambient_session_id as string;
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, owner.serviceToken] });
    ws.startTime();
    ws.ws.send(Buffer.alloc(3200 * 10));
    await ws.next((f) => f.type === 'ACK' && f.received_ms >= 1000, 'ACK');
    ws.event('ABORT');
    await ws.closed;
    const rec = await call(owner.headers, listRecordings, { params: { ambient_session_id: id } });
    expect(rec.status).toBe(200);
    const url = new URL(rec.json.recordings[0].presigned_url as string);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('audio/wav');
    const sig = url.searchParams.get('sig')!;
    const tampered = (mut: (u: URL) => void) => {
      const u = new URL(url);
      mut(u);
      return fetch(u);
    };
    const cases = [
      await tampered((u) => u.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1))),
      await tampered((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      await tampered((u) => u.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10))),
      await tampered((u) => u.searchParams.delete('sig')),
      await tampered((u) => (u.pathname = u.pathname.replace(/recordings\/[^/]+/, `recordings/${crypto.randomUUID()}`))),
      await tampered((u) => u.searchParams.set('download', u.searchParams.get('download') === '1' ? '0' : '1')),
    ];
    for (const r of cases) {
      expect([400, 401, 403, 404]).toContain(r.status);
      expect(((await r.json()) as { code: number }).code).toBe(r.status);
    }
  });
});

describe('rate limiting on login and register', () => {
  it('answers 429 with {code, message} and Retry-After once the per-minute budget is spent', async () => {
    const token = await partner.token({ email: owner.email });
    let limited: Response | undefined;
    for (let i = 0; i < 20 && !limited; i++) {
      const r = await testApi(server.baseUrl, { 'content-type': 'application/json' }).send(login, { body: { partner_id: partner.partnerId, partner_token: token } });
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(200);
    }
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited!.json()).toEqual({ code: 429, message: expect.stringContaining('retry after') });
    // A client-chosen address header does not buy a fresh bucket.
    const spoofed = await testApi(server.baseUrl, { 'content-type': 'application/json', 'x-real-ip': '203.0.113.9', 'x-forwarded-for': '203.0.113.9' }).send(register, { body: unchecked({}) });
    const reg: number[] = [spoofed.status];
    for (let i = 0; i < 12; i++) reg.push((await testApi(server.baseUrl, { 'content-type': 'application/json', 'x-real-ip': `198.51.100.${i}` }).send(register, { body: unchecked({}) })).status);
    expect(reg).toContain(429);
  });
});

describe('security headers', () => {
  it('are on API responses (dispatched directly), errors, and pages', async () => {
    // raw fetch: the same request to routes of every kind (and to none), comparing their headers
    for (const p of [`/api/v1/ambient/session/${sessionId}/status`, '/api/v1/info/loincs', '/api/v1/nope', '/api/admin/v1/partners', '/docs']) {
      const res = await fetch(`${server.baseUrl}${p}`, { headers: owner.headers });
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
      expect(res.headers.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy'), p).toBe('no-referrer');
      expect(res.headers.get('x-request-id'), p).toBeTruthy();
      expect(res.headers.get('x-powered-by'), p).toBeNull();
    }
  });
});

describe('webhook SSRF, end to end', () => {
  let receiver: TestReceiver;
  beforeAll(async () => {
    receiver = await startTestReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('never delivers to loopback or private addresses when WEBHOOK_ALLOW_PRIVATE is off', async () => {
    const targets = [receiver.url('/hook'), `http://localhost:${receiver.port}/hook`, `http://[::1]:${receiver.port}/hook`, 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/hook', `http://0x7f000001:${receiver.port}/hook`];
    for (const url of targets) {
      const created = await testApi(server.baseUrl, 'admin').send(createPartner, { body: { name: 'ssrf', type: 'STANDARD', issuer: 'https://idp.example', jwks: { keys: [partner.publicJwk as { kty: string }] }, webhook_url: url } });
      if (created.status === 201) {
        const { partner_id } = (await created.json()) as { partner_id: string };
        const test = await testApi(server.baseUrl, 'admin').send(sendTestWebhook, { params: { partner_id }, body: {} });
        expect(test.status, url).toBeLessThan(500);
      } else {
        expect(created.status, url).toBe(400);
        expect(((await created.json()) as { message: string }).message).toMatch(/webhook_url/);
      }
    }
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.requests).toEqual([]);
  });
});

describe('no PHI in the logs', () => {
  it('keeps context, rewrite text and patient identifiers out of the server log', async () => {
    const ctx = await call(owner.headers, setSessionContext, { params: { ambient_session_id: sessionId }, body: {
      patient: { dob: '1970-01-01', sex: 'female', emr_patient_id: PHI.patientId, name: PHI.name, mrn: PHI.mrn },
      visit: { chief_complaint: PHI.complaint, reason_for_visit: PHI.complaint },
    } });
    expect(ctx.status).toBeLessThan(300);
    // The patient name and MRN also travel through the search query string and the patient route.
    const found = await call(owner.headers, searchSessions, { query: { q: PHI.name } });
    expect(found.status).toBe(200);
    expect(found.json.sessions.map((x: { ambient_session_id: string }) => x.ambient_session_id)).toContain(sessionId);
    expect((await call(owner.headers, searchSessions, { query: { q: PHI.mrn } })).json.sessions).toHaveLength(1);
    expect((await call(owner.headers, updatePatientIdentity, { params: { ambient_session_id: sessionId }, body: { name: PHI.name, mrn: PHI.mrn } })).json).toEqual({ name: PHI.name, mrn: PHI.mrn });
    const rw = await call(owner.headers, rewriteSelection, { body: { selected_text: PHI.rewrite, selection_start: 0, selection_end: PHI.rewrite.length, instruction: 'CONCISE' } });
    expect(rw.status).toBe(200);
    const ingest = await call(owner.headers, ingestCkgBundle, { body: {
      emr_patient_id: PHI.patientId,
      bundle: { resourceType: 'Bundle', type: 'collection', entry: [{ resource: { resourceType: 'AllergyIntolerance', id: 'a1', code: { text: 'Quokkanut allergy' } } }] },
    } });
    expect(ingest.status).toBe(202);
    await new Promise((r) => setTimeout(r, 2500));
    const logs = server.logs();
    for (const word of ['Zanzibarite', 'falconry', 'xylophonic', 'QUOKKA-7731', 'Quokkanut', 'Quillfeather', 'Ostrogoth', 'NARWHAL-4410', owner.serviceToken.split('.')[2]!, ADMIN_KEY]) {
      expect(logs.includes(word), word).toBe(false);
    }
  });

  it('logs a failed query with its statement and error code, never its parameters', async () => {
    // A database that refuses the write (a constraint added behind the service's back) is a server-side
    // failure the service must log; the values it was writing are PHI.
    await server.stop();
    const database = await openTestDatabase(server.dataDir);
    await database.sql.executeSql('alter table ambient_sessions add constraint phi_probe check (context is null) not valid');
    await database.close();
    server = await startServer({ dataDir: server.dataDir, env: { SPEECH_ENGINE: 'none', WEBHOOK_ALLOW_PRIVATE: 'false' } });
    const probe = { complaint: 'Pangolinic vertigo after ballooning', patientId: 'MRN-OKAPI-5520' };
    const ctx = await call(owner.headers, setSessionContext, { params: { ambient_session_id: sessionId }, body: {
      patient: { dob: '1931-03-01', sex: 'female', emr_patient_id: probe.patientId },
      visit: { chief_complaint: probe.complaint, reason_for_visit: probe.complaint },
    } });
    expect(ctx.status).toBe(500);
    expect(ctx.json).toEqual({ code: 500, message: expect.any(String) });
    // The log line travels through the child's stdout pipe after the response; wait for it to arrive.
    for (let i = 0; i < 100 && !server.logs().includes('unhandled route error'); i++) await new Promise((r) => setTimeout(r, 100));
    const logs = server.logs();
    // JSON log lines escape the statement's quotes.
    expect(logs).toMatch(/Failed query \(23514\): update \\?"ambient_sessions\\?"/);
    for (const word of ['Pangolinic', 'ballooning', 'OKAPI-5520', '1931-03-01', 'params:', 'Failing row']) expect(logs.includes(word), word).toBe(false);
    // It stops and starts a server: on two cores shared with a browser suite that took over the default 60 s.
  }, 240_000);
});
