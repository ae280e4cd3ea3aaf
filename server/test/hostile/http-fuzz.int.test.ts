/**
 * Hostile input against every documented endpoint. The endpoint list comes from the server's own
 * /api/v1/openapi.json, so a route added later is fuzzed without touching this file. The property under
 * test: whatever arrives, the answer is never a 5xx, every error is a `{code, message}` JSON body with
 * `code` equal to the status, and the process stays up.
 */
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startServer, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../partners';
import { loadOperations, type Operation } from './openapi-operations';

interface Probe {
  op: Operation;
  pathValues: string[];
  query: [string, string][];
  body: { kind: 'none' } | { kind: 'json'; text: string } | { kind: 'bytes'; bytes: Uint8Array };
  contentType: string | null;
  auth: 'valid' | 'none' | 'garbage' | 'wrong-kind';
  extraHeaders: [string, string][];
}

let server: TestServer;
let provider: TestProvider;
let sessionId: string;
let partnerId: string;
let operations: Operation[] = [];

const SEED = Number(process.env.FUZZ_SEED ?? 20260131);
const PROBES = Number(process.env.FUZZ_PROBES ?? 2400);
/**
 * Bounds for a wedged request or run, not speed checks: beside other suites on two cores (load ~25) one probe
 * waited over 20 s for its answer, and the 2400 took 80 s.
 */
const REQUEST_BOUND_MS = 120_000;

beforeAll(async () => {
  server = await startServer({
    env: {
      // Probes should reach validation rather than stop at the login rate limit, and reach no real network.
      RATE_LIMIT_AUTH_PER_MINUTE: '0',
      WEBHOOK_ALLOW_PRIVATE: 'false',
      BODY_LIMIT_BYTES: String(256 * 1024),
      LOG_LEVEL: process.env.FUZZ_DEBUG ? 'info' : 'warn',
    },
  });
  const partner = await createTestPartner(server.baseUrl);
  partnerId = partner.partnerId;
  provider = await registerAndLogin(server.baseUrl, partner);
  const created = await fetch(`${server.baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers: provider.headers, body: '{}' });
  expect(created.status).toBe(201);
  sessionId = ((await created.json()) as { ambient_session_id: string }).ambient_session_id;

  operations = await loadOperations(server.baseUrl);
});

afterAll(async () => {
  await server?.stop();
});

// ---- generators ---------------------------------------------------------------------------------------

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  'null',
  'undefined',
  '0',
  '-1',
  '1e309',
  'NaN',
  'true',
  '../../etc/passwd',
  "' OR '1'='1' --",
  '"; DROP TABLE ambient_sessions; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '\u0000',
  '\uFFFF\uFFFE',
  '\uD800',
  '🩺🧬'.repeat(50),
  'ä'.repeat(300),
  'x'.repeat(70_000),
  '2026-02-30T25:61:61Z',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffffx',
  '__proto__',
  'constructor',
);

const anyScalar = fc.oneof(
  nastyStrings,
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt().map((n) => Number(n)),
  fc.uuid(),
);
const anyValue = fc.oneof(anyScalar, fc.array(anyScalar, { maxLength: 5 }), fc.dictionary(fc.string({ maxLength: 10 }), anyScalar, { maxKeys: 5 }), fc.jsonValue({ maxDepth: 4 }));

function deeplyNested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** encodeURIComponent refuses lone surrogates; send their (invalid) UTF-8 bytes instead. */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

/** Path segments, already percent-encoded where they should be: some deliberately are not valid encodings. */
function pathValueArb(name: string): fc.Arbitrary<string> {
  const known = name === 'partner_id' ? partnerId : sessionId;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(known) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: nastyStrings.map((s) => enc(s.slice(0, 2000))) },
    { weight: 2, arbitrary: fc.constantFrom('%FF', '%C0%AF', '%E2%82', '%00', '%', '%zz', '..', '%2e%2e', 'a%2Fb', '%uD800', 'x'.repeat(3000)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map(enc) },
  );
}

function bodyArb(op: Operation): fc.Arbitrary<Probe['body']> {
  const props = op.bodyProps.length ? op.bodyProps : ['x'];
  const wrongTypes = fc
    .record(Object.fromEntries(props.map((p) => [p, anyValue])) as Record<string, fc.Arbitrary<unknown>>, { requiredKeys: [] })
    .map((o) => ({ kind: 'json' as const, text: JSON.stringify(o) }));
  return fc.oneof(
    { weight: 6, arbitrary: wrongTypes },
    { weight: 2, arbitrary: anyValue.map((v) => ({ kind: 'json' as const, text: JSON.stringify(v) ?? 'null' })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Probe['body']>(
        { kind: 'json', text: deeplyNested(50_000, 'array') },
        { kind: 'json', text: deeplyNested(5_000, 'object') },
        { kind: 'json', text: `{"${props[0]}":${deeplyNested(2_000, 'array')}}` },
        { kind: 'json', text: JSON.stringify({ [props[0]!]: 'y'.repeat(300_000) }) },
        { kind: 'json', text: JSON.stringify({ [props[0]!]: Array.from({ length: 20_000 }, (_, i) => i) }) },
        { kind: 'json', text: '{"a":1,' },
        { kind: 'json', text: '\uFEFF{}' },
        { kind: 'json', text: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
        { kind: 'bytes', bytes: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
        { kind: 'bytes', bytes: new Uint8Array([0xc3, 0x28, 0xa0, 0xa1]) },
        { kind: 'bytes', bytes: new Uint8Array([0xed, 0xa0, 0x80]) },
        { kind: 'bytes', bytes: new Uint8Array(1024).fill(0) },
      ),
    },
  );
}

function probeArb(): fc.Arbitrary<Probe> {
  return fc.constantFrom(...operations).chain((op) =>
    fc.record({
      op: fc.constant(op),
      pathValues: fc.tuple(...op.pathParams.map(pathValueArb)),
      query: fc.array(
        fc.tuple(
          op.queryParams.length ? fc.oneof(fc.constantFrom(...op.queryParams), fc.string({ maxLength: 8 })) : fc.string({ maxLength: 8 }),
          fc.oneof(nastyStrings.map((s) => s.slice(0, 500)), fc.string({ maxLength: 20 })),
        ),
        { maxLength: 3 },
      ),
      body: op.hasBody ? bodyArb(op) : fc.oneof(fc.constant({ kind: 'none' as const }), bodyArb(op)),
      contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', null, 'application/json; charset=latin1'),
      auth: fc.constantFrom('valid', 'valid', 'valid', 'none', 'garbage', 'wrong-kind'),
      extraHeaders: fc.array(
        fc.constantFrom<[string, string]>(
          ['x-request-id', 'a'.repeat(500)],
          ['x-request-id', '../../x'],
          ['sdp_provider_id', "'; select 1; --"],
          ['sdp_provider_id', 'x'.repeat(4000)],
          ['cookie', 'authjs.session-token=%E0%A4%A; other=%'],
          ['cookie', 'authjs.session-token.0=abc; authjs.session-token.1=def'],
          ['cookie', '__Secure-authjs.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..x.y.z'],
          ['origin', 'https://evil.example'],
          ['range', 'bytes=999999999-1'],
          ['range', 'bytes=-0,0-,a-b'],
          ['content-length', '99999999999'],
          ['x-forwarded-host', 'evil.example'],
          ['accept', '*/*;q=abc'],
        ),
        { maxLength: 2 },
      ),
    }),
  );
}

function authHeaders(p: Probe): Record<string, string> {
  const h: Record<string, string> = {};
  if (p.auth === 'garbage') {
    h[p.op.admin ? 'authorization' : 'sdp_service_token'] = p.op.admin ? 'Bearer not-a-key' : 'eyJhbGciOiJub25lIn0.e30.';
  } else if (p.auth === 'wrong-kind') {
    if (p.op.admin) h.sdp_service_token = provider.serviceToken;
    else h.authorization = `Bearer ${ADMIN_KEY}`;
  } else if (p.auth === 'valid') {
    if (p.op.admin) h.authorization = `Bearer ${ADMIN_KEY}`;
    else h.sdp_service_token = provider.serviceToken;
  }
  return h;
}

const timings: [number, string, number][] = [];

interface Outcome {
  probe: string;
  status: number;
  body: string;
  problem: string;
}

async function send(p: Probe): Promise<Outcome | null> {
  let path = p.op.path;
  p.op.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, p.pathValues[i]!)));
  const qs = p.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  const headers: Record<string, string> = { ...authHeaders(p) };
  if (p.contentType) headers['content-type'] = p.contentType;
  for (const [k, v] of p.extraHeaders) if (k !== 'content-length') headers[k] = v;
  const body = p.body.kind === 'none' || p.op.method === 'GET' ? undefined : p.body.kind === 'json' ? p.body.text : Buffer.from(p.body.bytes);
  const describe = `${p.op.method} ${path}${qs ? `?${qs}` : ''} auth=${p.auth} ct=${p.contentType} body=${p.body.kind === 'json' ? p.body.text.slice(0, 200) : p.body.kind}`.slice(0, 600);
  let res: Response;
  const t0 = performance.now();
  try {
    res = await fetch(`${server.baseUrl}${path}${qs ? `?${qs}` : ''}`, { method: p.op.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_BOUND_MS) });
  } catch (err) {
    timings.push([performance.now() - t0, `${Math.round(t0)} FAILED ${describe.slice(0, 150)}`, 0]);
    return { probe: describe, status: 0, body: '', problem: `request failed: ${(err as Error).message}` };
  }
  const text = await res.text();
  timings.push([performance.now() - t0, `${Math.round(t0)} ${describe.slice(0, 150)}`, res.status]);
  if (res.status >= 500) return { probe: describe, status: res.status, body: text.slice(0, 300), problem: 'server error' };
  if (res.status >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { probe: describe, status: res.status, body: text.slice(0, 300), problem: 'error body is not JSON' };
    }
    const e = parsed as { code?: unknown; message?: unknown };
    if (e.code !== res.status || typeof e.message !== 'string' || e.message.length === 0) {
      return { probe: describe, status: res.status, body: text.slice(0, 300), problem: 'error body is not {code, message}' };
    }
    if (!(res.headers.get('content-type') ?? '').includes('application/json')) {
      return { probe: describe, status: res.status, body: text.slice(0, 300), problem: 'error content-type is not JSON' };
    }
  }
  if (!res.headers.get('x-request-id')) return { probe: describe, status: res.status, body: text.slice(0, 300), problem: 'no x-request-id' };
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

/** One raw HTTP exchange, for what fetch refuses to send (oversized headers, bad request lines). */
function raw(request: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let data = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('timeout')));
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

describe('hostile HTTP input across every v1 and admin endpoint', () => {
  it('enumerates the endpoints from the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.some((o) => o.path === '/api/v1/ambient/session/{ambient_session_id}/status')).toBe(true);
    expect(operations.some((o) => o.admin)).toBe(true);
  });

  it(`answers ${PROBES} malformed requests without a 5xx, always with {code, message}`, async () => {
    const probes = fc.sample(probeArb(), { numRuns: PROBES, seed: SEED });
    // Every operation gets probed even if the sample is skewed.
    const covered = new Set(probes.map((p) => `${p.op.method} ${p.op.path}`));
    expect(covered.size).toBe(operations.length);
    const results = await pool(probes, 12, send);
    const failures = results.filter((r): r is Outcome => r !== null);
    if (process.env.FUZZ_DEBUG) {
      console.log(timings.sort((a, b) => b[0] - a[0]).slice(0, 25));
      (await import('node:fs')).writeFileSync('/tmp/fuzz-server.log', server.logs());
    }
    const serverErrors = server.logs().split('\n').filter((l) => l.includes('"level":50')).slice(0, 5).map((l) => l.slice(0, 800));
    expect({ failures: failures.slice(0, 10), serverErrors }, `seed ${SEED}: ${failures.length} of ${probes.length} probes misbehaved`).toEqual({ failures: [], serverErrors: [] });
  }, 900_000);

  it('answers oversized headers, broken request lines and header injection with a JSON error, not a crash', async () => {
    const huge = await raw(`GET /api/v1/info HTTP/1.1\r\nhost: x\r\nsdp_service_token: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toEqual({ code: 431, message: expect.any(String) });

    const line = await raw('GET /api/v1/info HTTP/9.9 junk\r\n\r\n');
    expect(line.status).toBe(400);
    expect(JSON.parse(line.body)).toEqual({ code: 400, message: expect.any(String) });

    const lf = await raw('GET /api/v1/info HTTP/1.1\r\nhost: x\r\nx-a: 1\rSet-Cookie: evil=1\r\n\r\n');
    expect(lf.status).toBe(400);
    expect(lf.headers.toLowerCase()).not.toContain('set-cookie');

    // A header value fetch would refuse (latin-1 bytes): the request is still answered, never echoed as a header.
    const latin = await raw(Buffer.concat([Buffer.from('GET /api/v1/info/loincs HTTP/1.1\r\nhost: x\r\nconnection: close\r\nsdp_service_token: '), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from('\r\nx-request-id: ok%0d%0aSet-Cookie:x\r\n\r\n')]));
    expect(latin.status).toBe(401);
    expect(JSON.parse(latin.body)).toEqual({ code: 401, message: expect.any(String) });
    expect(latin.headers.toLowerCase()).not.toContain('set-cookie');

    const many = await raw(`GET /api/v1/info HTTP/1.1\r\nhost: x\r\nconnection: close\r\n${Array.from({ length: 3000 }, (_, i) => `x-h${i}: v`).join('\r\n')}\r\n\r\n`);
    expect([400, 431]).toContain(many.status);
    expect(JSON.parse(many.body).code).toBe(many.status);
  });

  it('is still alive and serving afterwards', async () => {
    expect(server.proc.exitCode).toBeNull();
    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const status = await fetch(`${server.baseUrl}/api/v1/ambient/session/${sessionId}/status`, { headers: provider.headers });
    expect(status.status).toBe(200);
    expect(((await status.json()) as { status: string }).status).toMatch(/^(created|ready|running|completed|skipped|failed|aborted)$/);
  });
});
