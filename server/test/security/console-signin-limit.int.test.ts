/**
 * Console sign-in limits (issue #12 item 8, issue #26 item 4) through next-auth's real credentials callback:
 * per account and address with back-off, per address across accounts (never for an account that signed in
 * from that address), per account across addresses (never from an address the account signed in from),
 * counters kept in the database so they outlast a restart, and X-Forwarded-For believed only from
 * TRUSTED_PROXIES. Clients come
 * from distinct loopback addresses (127.0.0.x), which the server sees as distinct socket addresses.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness';
import { testApi } from '../api-client';
import { createUser as createUserRoute } from '@/lib/contracts/routes/admin-users';
import { register as registerRoute } from '@/lib/contracts/routes/auth';
import { backoffSeconds } from '../../domain/users/sign-in-limits';

const PASSWORD = 'correct-horse-battery';
const ENV = {
  SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: '3',
  SIGNIN_FAILURES_PER_ACCOUNT: '8',
  SIGNIN_FAILURES_PER_ADDRESS: '12',
  // Long enough that no block ends while the test runs, whatever the machine's speed.
  SIGNIN_BLOCK_BASE_SECONDS: '600',
  SIGNIN_MAX_BLOCK_SECONDS: '900',
  SPEECH_ENGINE: 'none',
};

let server: TestServer;
let csrf: { token: string; cookie: string };

interface Outcome {
  kind: 'signed-in' | 'refused' | 'limited';
  status: number;
  retryAfter: number | null;
  body: string;
}

interface Target {
  server: TestServer;
  csrf: { token: string; cookie: string };
}

/** POSTs the credentials form from a chosen local address, as a browser there (or a proxy for it) would. */
function signInFrom(address: string, email: string, password: string, extraHeaders: Record<string, string> = {}, target: Target = { server, csrf }): Promise<Outcome> {
  const body = new URLSearchParams({ email, password, csrfToken: target.csrf.token, callbackUrl: `${target.server.baseUrl}/admin` }).toString();
  const url = new URL(`${target.server.baseUrl}/api/auth/callback/credentials`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: address,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), cookie: target.csrf.cookie, ...extraHeaders },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const cookies = res.headers['set-cookie'] ?? [];
          const kind = res.statusCode === 429 ? 'limited' : cookies.some((c) => c.startsWith('authjs.session-token=')) ? 'signed-in' : 'refused';
          const ra = res.headers['retry-after'];
          resolve({ kind, status: res.statusCode ?? 0, retryAfter: ra === undefined ? null : Number(ra), body: text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function createUser(on: TestServer = server): Promise<string> {
  const email = `admin.${crypto.randomUUID().slice(0, 8)}@service.example`;
  const res = await testApi(on, 'admin').call(createUserRoute, { body: { email, password: PASSWORD, role: 'service_admin' } });
  expect(res.status).toBe(201);
  return email;
}

async function fetchCsrf(on: TestServer = server): Promise<{ token: string; cookie: string }> {
  // raw fetch: next-auth's own route, which no contract declares
  const res = await fetch(`${on.baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { token: csrfToken, cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
}

beforeAll(async () => {
  server = await startServer({ env: ENV });
  csrf = await fetchCsrf();
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

describe('console sign-in limits', () => {
  it('makes an account wait at an address after consecutive failures, even with the right password, without touching its other addresses; the wait outlasts a restart', async () => {
    const email = await createUser();
    for (let i = 0; i < 3; i++) expect((await signInFrom('127.0.0.2', email, `wrong-guess-${i}`)).kind).toBe('refused');
    const limited = await signInFrom('127.0.0.2', email, PASSWORD);
    expect(limited.kind).toBe('limited');
    expect(JSON.parse(limited.body)).toEqual({ code: 429, message: expect.stringMatching(/^too many failed sign-in attempts; retry after \d+ s$/) });
    expect(limited.retryAfter).toBeGreaterThan(0);
    expect(limited.retryAfter).toBeLessThanOrEqual(600);
    // The user, elsewhere, is not locked out by the guesses made at 127.0.0.2.
    expect((await signInFrom('127.0.0.3', email, PASSWORD)).kind).toBe('signed-in');

    // Counters live in the database: a restarted process (or another one) sees the same wait.
    const dataDir = server.dataDir;
    await server.stop();
    server = await startServer({ dataDir, env: ENV });
    csrf = await fetchCsrf();
    expect((await signInFrom('127.0.0.2', email, PASSWORD)).kind).toBe('limited');
    expect((await signInFrom('127.0.0.3', email, PASSWORD)).kind).toBe('signed-in');
    // It restarts its server: a start's bound, not the default 60 s (exceeded beside a browser suite).
  }, 240_000);

  it('stops one address guessing across many accounts', async () => {
    const victim = await createUser();
    for (let i = 0; i < 12; i++) {
      const r = await signInFrom('127.0.0.4', `nobody.${i}.${crypto.randomUUID().slice(0, 6)}@service.example`, 'guess');
      expect(r.kind, `attempt ${i}`).toBe('refused');
    }
    expect((await signInFrom('127.0.0.4', victim, PASSWORD)).kind).toBe('limited');
    expect((await signInFrom('127.0.0.5', victim, PASSWORD)).kind).toBe('signed-in');
  });

  it('slows guesses at one account from many addresses, but never locks the user out of an address it signed in from', async () => {
    const email = await createUser();
    expect((await signInFrom('127.0.0.10', email, PASSWORD)).kind).toBe('signed-in');
    // Two guesses from each of four addresses: under the per-address-pair limit, over the account's.
    for (const a of ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14']) {
      for (let i = 0; i < 2; i++) expect((await signInFrom(a, email, `guess-${i}`)).kind).toBe('refused');
    }
    const fresh = await signInFrom('127.0.0.20', email, PASSWORD);
    expect(fresh.kind).toBe('limited');
    expect(fresh.retryAfter).toBeLessThanOrEqual(900);
    expect((await signInFrom('127.0.0.10', email, PASSWORD)).kind).toBe('signed-in');
  });
});

describe('one address shared by many users (a NAT or a reverse proxy)', () => {
  it('50 failures for made-up emails from an address do not block a user who signed in from it before', async () => {
    const email = await createUser();
    expect((await signInFrom('127.0.0.40', email, PASSWORD)).kind).toBe('signed-in');
    for (let i = 0; i < 50; i++) {
      const r = await signInFrom('127.0.0.40', `made.up.${i}.${crypto.randomUUID().slice(0, 6)}@service.example`, 'guess');
      expect(['refused', 'limited'], `attempt ${i}`).toContain(r.kind);
    }
    expect((await signInFrom('127.0.0.40', email, PASSWORD)).kind).toBe('signed-in');
    // Someone new at that address is still held back: the answer must not tell made-up emails from real ones.
    expect((await signInFrom('127.0.0.40', await createUser(), PASSWORD)).kind).toBe('limited');
  });

  it('ignores X-Forwarded-For without TRUSTED_PROXIES: a client cannot pick a fresh address', async () => {
    const email = await createUser();
    for (let i = 0; i < 3; i++) expect((await signInFrom('127.0.0.41', email, `guess-${i}`, { 'x-forwarded-for': `198.51.100.${i}` })).kind).toBe('refused');
    expect((await signInFrom('127.0.0.41', email, PASSWORD, { 'x-forwarded-for': '198.51.100.99' })).kind).toBe('limited');
  });
});

describe('behind a trusted proxy (TRUSTED_PROXIES)', () => {
  let proxied: Target;
  const PROXY = '127.0.0.50';
  beforeAll(async () => {
    const s = await startServer({ env: { ...ENV, TRUSTED_PROXIES: `${PROXY}/32`, RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    proxied = { server: s, csrf: await fetchCsrf(s) };
  }, 240_000);
  afterAll(async () => {
    await proxied?.server.stop();
  });

  it('believes X-Forwarded-For from the proxy, rightmost hop first, and only from the proxy', async () => {
    const email = await createUser(proxied.server);
    // The client wrote the left hop itself; the proxy appended the address it saw.
    for (let i = 0; i < 3; i++) expect((await signInFrom(PROXY, email, `guess-${i}`, { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.7` }, proxied)).kind).toBe('refused');
    expect((await signInFrom(PROXY, email, PASSWORD, { 'x-forwarded-for': '203.0.113.7' }, proxied)).kind).toBe('limited');
    // Another client behind the same proxy is another address.
    expect((await signInFrom(PROXY, email, PASSWORD, { 'x-forwarded-for': '203.0.113.8' }, proxied)).kind).toBe('signed-in');
    // A peer that is not the proxy is its own address, whatever it claims.
    for (let i = 0; i < 3; i++) await signInFrom('127.0.0.51', email, `guess-${i}`, { 'x-forwarded-for': `203.0.113.${20 + i}` }, proxied);
    expect((await signInFrom('127.0.0.51', email, PASSWORD, { 'x-forwarded-for': '203.0.113.30' }, proxied)).kind).toBe('limited');
  });

  it('keys the register/login limiter on the forwarded client too', async () => {
    const register = (from: string, forwardedFor: string) =>
      new Promise<number>((resolve, reject) => {
        // Not through the typed client: fetch cannot choose the local address, which is what the limit counts.
        const url = new URL(`${proxied.server.baseUrl}${registerRoute.path}`);
        const req = http.request(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    const first: number[] = [];
    for (let i = 0; i < 4; i++) first.push(await register(PROXY, '203.0.113.40'));
    expect(first.slice(0, 3)).not.toContain(429);
    expect(first[3]).toBe(429);
    expect(await register(PROXY, '203.0.113.41')).not.toBe(429);
  });
});

describe('hostile sign-in input', () => {
  it('refuses an email with a NUL character as a failed sign-in, not a server error', async () => {
    const r = await signInFrom('127.0.0.30', 'dr\u0000x@service.example', 'guess');
    expect(r.kind).toBe('refused');
    expect(r.status).toBeLessThan(500);
  });
});

describe('back-off', () => {
  it('doubles per consecutive failure past the limit and is capped, so no block lasts for good', () => {
    const c = { perAccountAddress: 5, perAccount: 20, perAddress: 50, windowSeconds: 900, blockBaseSeconds: 30, maxBlockSeconds: 900 };
    expect([4, 5, 6, 7, 8, 9, 10, 11, 1000].map((n) => backoffSeconds(n, c))).toEqual([0, 30, 60, 120, 240, 480, 900, 900, 900]);
  });
});
