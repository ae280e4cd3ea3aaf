import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFO_ROUTES } from '@/lib/info';
import { CONTRACTS } from '@/lib/contracts/routes';
import { ROOT, startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { infoRoute, testApi, unchecked } from '../test/api-client';
import { login } from '@/lib/contracts/routes/auth';
import { getHealth, getOpenApiDocument, getReadiness } from '@/lib/contracts/routes/meta';
import { createPartner, getPartner, listPartners, rotateWebhookSecret, updatePartner } from '@/lib/contracts/routes/admin-partners';
import { getAllInfo } from '@/lib/contracts/routes/info';

let server: TestServer;
let provider: TestProvider;

beforeAll(async () => {
  server = await startServer({ env: { BODY_LIMIT_BYTES: '4096' } });
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
});
afterAll(async () => {
  await server?.stop();
});

describe('errors are {code, message} everywhere', () => {
  it('unknown /api routes are 404 with the error body', async () => {
    // raw fetch: paths no contract declares, on purpose
    for (const p of ['/api/v1/nope', '/api/admin/v1/unknown/thing', '/api/v1/info/not-a-list']) {
      // raw fetch: a path no contract declares, on purpose
      const res = await fetch(`${server.baseUrl}${p}`, { method: 'POST' });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 404, message: expect.stringContaining(p) });
    }
    // A malformed escape on a path no route of ours takes (found by http-fuzz.int: Next answered a bare 500).
    // raw fetch: hostile (malformed percent-encoded) paths
    for (const p of ['/api/v1/%ED%A0%80', '/api/admin/v1/partners/%ED%A0%80/enable', '/visits/%E0%A4']) {
      // raw fetch: a hostile (malformed percent-encoded) path
      const res = await fetch(`${server.baseUrl}${p}`, { method: 'POST' });
      expect(res.status, p).toBe(400);
      expect(await res.json()).toEqual({ code: 400, message: 'path: not valid percent-encoded UTF-8' });
    }
  });

  it('wrong methods are 405 naming the allowed ones', async () => {
    // raw fetch: a method the contract does not declare, on purpose
    const res = await fetch(`${server.baseUrl}/api/v1/auth/login`, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({ code: 405, message: expect.stringContaining('POST') });
    // raw fetch: a method the contract does not declare, on purpose
    const put = await fetch(`${server.baseUrl}/api/v1/info`, { method: 'PUT' });
    expect(put.status).toBe(405);
  });

  it('malformed JSON is 400, a body over the limit is 413, a missing body is 400', async () => {
    // raw fetch: malformed JSON, on purpose
    const bad = await fetch(`${server.baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"partner_id":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ code: 400, message: 'request body is not valid JSON' });
    const big = await testApi(server.baseUrl, { 'content-type': 'application/json' }).send(login, { body: unchecked({ partner_id: 'x'.repeat(10_000) }) });
    expect(big.status).toBe(413);
    expect((await big.json()).code).toBe(413);
    const none = await testApi(server.baseUrl).send(login);
    expect(none.status).toBe(400);
    expect((await none.json()).message).toContain('body');
  });

  it('wrong types name the field', async () => {
    const res = await testApi(server.baseUrl, { 'content-type': 'application/json' }).send(login, { body: unchecked({ partner_id: 42, partner_token: 'x' }) });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/^partner_id: /);
  });
});

describe('request ids', () => {
  it('every response carries x-request-id, echoing a well-formed one and replacing a malformed one', async () => {
    const a = await testApi(server.baseUrl, { 'x-request-id': 'abc-123' }).send(getHealth);
    expect(a.headers.get('x-request-id')).toBe('abc-123');
    // raw fetch: a path no contract declares, on purpose
    const b = await fetch(`${server.baseUrl}/api/v1/nope`);
    expect(b.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const c = await testApi(server.baseUrl, { 'x-request-id': 'bad id with spaces' }).send(getHealth);
    expect(c.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const page = await fetch(`${server.baseUrl}/docs`);
    expect(page.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('health and readiness', () => {
  it('reports liveness and a reachable database and queue', async () => {
    expect(await (await testApi(server.baseUrl).send(getHealth)).json()).toEqual({ status: 'ok' });
    expect(await (await testApi(server.baseUrl).send(getReadiness)).json()).toEqual({ status: 'ready', database: 'ok', queue: 'ok' });
  });
});

describe('info lists', () => {
  it('serves every per-category route with its list, behind a service token', async () => {
    for (const r of INFO_ROUTES) {
      const res = await testApi(server.baseUrl, { sdp_service_token: provider.serviceToken }).send(infoRoute(r.path));
      expect(res.status, r.path).toBe(200);
      const body = await res.json();
      expect(body, r.path).toEqual(JSON.parse(JSON.stringify(r.body)));
      const unauth = await testApi(server.baseUrl).send(infoRoute(r.path));
      expect(unauth.status).toBe(401);
    }
    const timings = await (await testApi(server.baseUrl, { sdp_service_token: provider.serviceToken }).send(infoRoute('orders/medication-timings'))).json();
    expect(timings.timings).toEqual(expect.arrayContaining([{ code: 'WITH_MEALS' }]));
    const loincs = await (await testApi(server.baseUrl, { sdp_service_token: provider.serviceToken }).send(infoRoute('loincs'))).json();
    expect(loincs.loincs).toEqual(expect.arrayContaining([expect.objectContaining({ code: '10164-2' }), expect.objectContaining({ code: '51847-2' })]));
    const types = await (await testApi(server.baseUrl, { sdp_service_token: provider.serviceToken }).send(infoRoute('diagnosis-code-types'))).json();
    expect(types.diagnosis_code_types.map((t: { code_type: string }) => t.code_type)).not.toContain('SNOMED');
  });
});

describe('OpenAPI', () => {
  function appRoutePaths(): string[] {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name === 'route.ts') out.push(path.relative(path.join(ROOT, 'app'), dir));
      }
    };
    walk(path.join(ROOT, 'app', 'api'));
    return out.map((p) => `/${p.split(path.sep).map((s) => s.replace(/^\[(.+)\]$/, '{$1}')).join('/')}`);
  }

  it('documents every route contract with its methods, and app/ holds only the routes Next must serve', async () => {
    const doc = await (await testApi(server.baseUrl).send(getOpenApiDocument)).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(CONTRACTS.length).toBeGreaterThan(60);
    const missing = CONTRACTS.filter((c) => !doc.paths[c.path]?.[c.method.toLowerCase()]).map((c) => `${c.method} ${c.path}`);
    expect(missing).toEqual([]);
    // One dispatcher: the node dispatcher serves every contract but those that need Next's request scope.
    const nextServed = CONTRACTS.filter((c) => c.servedBy === 'next').map((c) => c.path);
    expect(appRoutePaths().sort()).toEqual(['/api/{...path}', '/api/auth/{...nextauth}', ...nextServed].sort());
    // not a request: a path of the OpenAPI document
    expect(doc.paths['/api/v1/auth/register'].post.requestBody.content['application/json'].schema).toBeTruthy();
    expect(doc.components.securitySchemes.sdp_service_token).toEqual({ type: 'apiKey', in: 'header', name: 'sdp_service_token' });
  });

  it('renders the reference at /docs', async () => {
    const res = await fetch(`${server.baseUrl}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    // not a request: the docs page names the paths
    expect(html).toContain('/api/v1/auth/register');
    // not a request: the docs page names the paths
    expect(html).toContain('/api/v1/info/orders/medication-timings');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('admin API: partners', () => {
  it('requires admin credentials', async () => {
    const none = await testApi(server.baseUrl).send(listPartners);
    expect(none.status).toBe(401);
    const wrong = await testApi(server.baseUrl, { authorization: 'Bearer nope' }).send(listPartners);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ code: 401, message: expect.any(String) });
  });

  it('creates, lists, reads, updates and rotates, showing the webhook secret only when created or rotated', async () => {
    const create = await testApi(server.baseUrl, 'admin').send(createPartner, { body: { partner_id: 'acme-ehr', name: 'Acme EHR', type: 'SINGLE_AUTH_TOKEN', issuer: 'https://idp.acme.example', jwks_uri: 'https://idp.acme.example/jwks', provider_id_pattern: '^[0-9]{10}$', webhook_url: 'https://acme.example/webhooks/notification' } });
    expect(create.status).toBe(201);
    const created = await create.json();
    expect(created).toMatchObject({ partner_id: 'acme-ehr', type: 'SINGLE_AUTH_TOKEN', access_level: 'FULL', email_claim: 'email', jwks: null });
    expect(created.webhook_secret).toMatch(/^whsec_/);
    expect((await testApi(server.baseUrl, 'admin').send(createPartner, { body: { partner_id: 'acme-ehr', name: 'dup', type: 'STANDARD', issuer: 'x', jwks_uri: 'https://x.example/j' } })).status).toBe(409);

    const got = await (await testApi(server.baseUrl, 'admin').send(getPartner, { params: { partner_id: 'acme-ehr' } })).json();
    expect(got.webhook_secret).toBeUndefined();
    const list = await (await testApi(server.baseUrl, 'admin').send(listPartners)).json();
    expect(list.partners.map((p: { partner_id: string }) => p.partner_id)).toContain('acme-ehr');

    const patched = await testApi(server.baseUrl, 'admin').send(updatePartner, { params: { partner_id: 'acme-ehr' }, body: { name: 'Acme', jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' }] } } });
    expect(patched.status).toBe(200);
    const after = await patched.json();
    expect(after).toMatchObject({ name: 'Acme', jwks_uri: null, jwks: { keys: [expect.objectContaining({ kty: 'EC' })] } });
    const invalid = await testApi(server.baseUrl, 'admin').send(updatePartner, { params: { partner_id: 'acme-ehr' }, body: { provider_id_pattern: null } });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).message).toContain('provider_id_pattern');

    const rotated = await testApi(server.baseUrl, 'admin').send(rotateWebhookSecret, { params: { partner_id: 'acme-ehr' } });
    const { webhook_secret } = await rotated.json();
    expect(webhook_secret).toMatch(/^whsec_/);
    expect(webhook_secret).not.toBe(created.webhook_secret);
    expect((await testApi(server.baseUrl, 'admin').send(getPartner, { params: { partner_id: 'nobody' } })).status).toBe(404);
    const badId = await testApi(server.baseUrl, 'admin').send(getPartner, { params: { partner_id: 'bad%20id' } });
    expect(badId.status).toBe(400);
    expect((await badId.json()).message).toContain('partner_id');
  });

  it('validates trust settings: exactly one key source, a valid pattern', async () => {
    const both = await testApi(server.baseUrl, 'admin').send(createPartner, { body: { name: 'x', type: 'STANDARD', issuer: 'i', jwks_uri: 'https://a.example/j', jwks: { keys: [{ kty: 'RSA' }] } } });
    expect(both.status).toBe(400);
    expect((await both.json()).message).toContain('jwks');
    const regex = await testApi(server.baseUrl, 'admin').send(createPartner, { body: { name: 'x', type: 'BEARER', issuer: 'i', jwks_uri: 'https://a.example/j', provider_id_pattern: '([' } });
    expect(regex.status).toBe(400);
    expect((await regex.json()).message).toContain('provider_id_pattern');
  });
});

describe('operations', () => {
  it('refuses a second process on the same PGlite data directory', async () => {
    if (process.env.TEST_DATABASE_URL) return; // the guard is PGlite's; PostgreSQL admits many processes
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: server.dataDir, PORT: '0', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).not.toBe(0);
    expect(out).toContain('in use by process');
    expect((await testApi(server.baseUrl).send(getReadiness)).status).toBe(200);
  });

  it('logs requests as JSON without tokens', async () => {
    await testApi(server.baseUrl, { sdp_service_token: provider.serviceToken }).send(getAllInfo);
    const logs = server.logs();
    // not a request: the path the access log records
    expect(logs).toContain('"path":"/api/v1/info"');
    expect(logs).not.toContain(provider.serviceToken);
  });

  it('shuts down gracefully on SIGTERM, finishing in-flight work and releasing the data directory', async () => {
    const own = await startServer();
    // A request whose body is still arriving when SIGTERM lands is in flight for certain.
    const body = JSON.stringify({ partner_id: 'nobody', partner_token: 'x.y.z' });
    // One SIGTERM only: a second signal now means "exit at once" (exit 1), so the test awaits the first stop.
    let stopping: Promise<number | null> | undefined;
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      // raw fetch: a request whose body is cut off mid-way, on purpose
      const req = http.request(`${own.baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        stopping = own.stop();
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 300);
    });
    const finished = await response;
    expect(finished.status).toBe(401);
    expect(JSON.parse(finished.body)).toEqual({ code: 401, message: expect.stringContaining('partner') });
    const code = await stopping;
    expect(code, own.logs().slice(-3000)).toBe(0);
    expect(own.logs()).toContain('"msg":"stopped"');
    if (!process.env.TEST_DATABASE_URL) expect(fs.existsSync(path.join(own.dataDir, 'pglite.lock'))).toBe(false);
  });
});
