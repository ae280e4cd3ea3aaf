/**
 * Issue #12's hostile values sent deterministically to EVERY documented endpoint, with valid credentials
 * so they reach validation and the database: NUL characters in every path parameter, query parameter and
 * body property; JSON nested 5,000 levels deep; dates beyond what JavaScript or PostgreSQL can hold,
 * including list cursors carrying them. Seventeen of these were 500s. The property: 0 × 5xx, every error
 * a `{code, message}` body, and a NUL anywhere answered 400 naming where it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startServer, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../partners';
import { loadOperations, type Operation } from './openapi-operations';
import { testApi } from '../api-client';
import { createSession } from '@/lib/contracts/routes/sessions';
import { login as loginRoute } from '@/lib/contracts/routes/auth';
import { listAudit } from '@/lib/contracts/routes/admin-audit';
import { listProviderSessions } from '@/lib/contracts/routes/app';

let server: TestServer;
let provider: TestProvider;
let sessionId: string;
let partnerId: string;
let operations: Operation[] = [];

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE: 'false', SPEECH_ENGINE: 'none', LOG_LEVEL: 'warn' } });
  const partner = await createTestPartner(server.baseUrl);
  partnerId = partner.partnerId;
  provider = await registerAndLogin(server.baseUrl, partner);
  const created = await testApi(server.baseUrl, provider.headers).send(createSession, { body: {} });
  expect(created.status).toBe(201);
  sessionId = ((await created.json()) as { ambient_session_id: string }).ambient_session_id;
  operations = await loadOperations(server.baseUrl);
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

const NUL = 'a\u0000b';
const DEEP = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
const DEEP_ARRAY = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const cursor = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');
/** Dates JavaScript parses but PostgreSQL cannot store, the ends of JavaScript's range, and year 0. */
const FAR_DATES = [
  '9999-12-31',
  '9999-12-31T23:59:58Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '200000-01-01',
  '0000-01-01',
  cursor(['+275760-09-13T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']),
  cursor(['200000-01-01', 'x']),
  cursor([1e300]),
  Buffer.from('+275760-09-13T00:00:00.000Z|00000000-0000-4000-8000-000000000000').toString('base64url'),
];

interface Request {
  op: Operation;
  label: string;
  path: string;
  query: [string, string][];
  body?: string;
  /** A NUL went somewhere the route reads, so the answer must be 400 naming it. */
  expectNul?: 'path' | 'query' | 'body';
}

function pathFor(op: Operation, override?: { name: string; value: string }): string {
  let p = op.path;
  for (const name of op.pathParams) {
    const value = override?.name === name ? override.value : name === 'partner_id' ? partnerId : name === 'loinc' ? '10164-2' : name === 'position' ? '0' : sessionId;
    p = p.replace(`{${name}}`, encodeURIComponent(value));
  }
  return p;
}

function requestsFor(op: Operation): Request[] {
  const out: Request[] = [];
  const props = op.bodyProps.length ? op.bodyProps : ['x'];
  // A required query parameter gets a well-formed value, so what reaches the body is the body's NUL, not its absence.
  const base = { op, path: pathFor(op), query: op.requiredQuery.map((q): [string, string] => [q, 'v1']) };
  const withBody = (body: Record<string, unknown> | string) => (op.hasBody ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {});
  for (const name of op.pathParams) out.push({ ...base, label: `NUL in path ${name}`, path: pathFor(op, { name, value: NUL }), ...withBody({}), expectNul: 'path' });
  for (const name of op.queryParams) out.push({ ...base, label: `NUL in query ${name}`, query: [...base.query.filter(([k]) => k !== name), [name, NUL]], ...withBody({}), expectNul: 'query' });
  if (op.hasBody) {
    out.push({ ...base, label: 'NUL in every body property', body: JSON.stringify(Object.fromEntries(props.map((p) => [p, NUL]))), expectNul: 'body' });
    out.push({ ...base, label: 'NUL nested in a body property', body: JSON.stringify({ [props[0]!]: { inner: [NUL] } }), expectNul: 'body' });
    out.push({ ...base, label: 'NUL in a body key', body: JSON.stringify({ [`k${NUL}`]: 1 }), expectNul: 'body' });
    out.push({ ...base, label: 'deep object', body: `{"${props[0]}":${DEEP}}` });
    out.push({ ...base, label: 'deep array', body: `{"${props[props.length - 1]}":${DEEP_ARRAY}}` });
    out.push({ ...base, label: 'deep body', body: DEEP_ARRAY });
  }
  for (const date of FAR_DATES) {
    if (op.queryParams.length) {
      const query = op.queryParams.map((q): [string, string] => [q, date]);
      out.push({ ...base, label: `query date ${date}`, query, ...withBody({}) });
      if (op.queryParams.includes('utc_offset_minutes')) {
        for (const offset of ['-840', '840']) {
          out.push({ ...base, label: `query date ${date} at ${offset}`, query: [...query.filter(([k]) => k !== 'utc_offset_minutes'), ['utc_offset_minutes', offset]] });
        }
      }
    }
    if (op.hasBody) out.push({ ...base, label: `body date ${date}`, body: JSON.stringify(Object.fromEntries(props.map((p) => [p, date]))) });
  }
  return out;
}

async function send(r: Request): Promise<string | null> {
  const qs = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (r.op.admin) headers.authorization = `Bearer ${ADMIN_KEY}`;
  else headers.sdp_service_token = provider.serviceToken;
  const res = await fetch(`${server.baseUrl}${r.path}${qs ? `?${qs}` : ''}`, { method: r.op.method, headers, body: r.body, redirect: 'manual' });
  const text = await res.text();
  const where = `${r.op.method} ${r.op.path} [${r.label}] → ${res.status} ${text.slice(0, 200)}`;
  if (res.status >= 500) return `server error: ${where}`;
  if (res.status >= 400) {
    let body: { code?: unknown; message?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      return `error body is not JSON: ${where}`;
    }
    if (body.code !== res.status || typeof body.message !== 'string' || !body.message) return `error body is not {code, message}: ${where}`;
  }
  if (r.expectNul) {
    const message = (JSON.parse(text || '{}') as { message?: string }).message ?? '';
    if (res.status !== 400 || !message.includes('must not contain NUL characters')) return `NUL not refused with 400: ${where}`;
  }
  return null;
}

async function pool<T, R>(items: T[], width: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

describe('NUL characters, deep nesting and out-of-range dates on every endpoint', () => {
  it('answers every one without a 5xx, refusing NUL with 400 naming the field', async () => {
    const requests = operations.flatMap(requestsFor);
    expect(operations.length).toBeGreaterThan(30);
    expect(requests.filter((r) => r.expectNul).length).toBeGreaterThan(operations.length);
    const problems = (await pool(requests, 8, send)).filter((p): p is string => p !== null);
    const serverErrors = server.logs().split('\n').filter((l) => l.includes('"level":50')).slice(0, 5).map((l) => l.slice(0, 600));
    expect({ problems: problems.slice(0, 15), serverErrors }, `${problems.length} of ${requests.length} requests misbehaved`).toEqual({ problems: [], serverErrors: [] });
  }, 300_000);

  it('names the field holding the NUL', async () => {
    const login = await testApi(server.baseUrl, { 'content-type': 'application/json' }).send(loginRoute, { body: { partner_id: NUL, partner_token: 'x' } });
    expect(login.status).toBe(400);
    expect(await login.json()).toEqual({ code: 400, message: 'partner_id: must not contain NUL characters (\\u0000)' });
    const audit = await testApi(server.baseUrl, { authorization: `Bearer ${ADMIN_KEY}` }).send(listAudit, { query: { actor: NUL } });
    expect(await audit.json()).toEqual({ code: 400, message: 'query parameter actor: must not contain NUL characters (\\u0000)' });
  });

  it('answers the day list at the end of the calendar with 400, not 500', async () => {
    const res = await testApi(server.baseUrl, provider.headers).send(listProviderSessions, { query: { date: '9999-12-31', utc_offset_minutes: '-840' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^query parameter date: must be between 1900-01-01 and 9999-12-30/);
  });
});
