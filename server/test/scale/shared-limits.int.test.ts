/**
 * Issue #18 item 6: the register/login rate limit and the stream caps hold across processes. Two web
 * processes (the Procfile's `web` entry, WORKERS=0) share one PostgreSQL database and the signing key, as a
 * deployment's do; a limit counted per process would let each of them allow it again.
 *
 * PostgreSQL only (PGlite admits one process): scripts/test.sh leaves it out of the PGlite pass by name and
 * runs it in the PostgreSQL pass; run directly without TEST_DATABASE_URL it fails, it does not skip.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../partners';
import { TestSocket } from '../ws-client';
import { testApi } from '../api-client';
import { createSession } from '@/lib/contracts/routes/sessions';
import { register } from '@/lib/contracts/routes/auth';

const AUTH_PER_MINUTE = 6;
let a: TestServer;
let b: TestServer;
let partner: TestPartner;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('this test needs PostgreSQL: set TEST_DATABASE_URL (PGlite admits one process)');
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const env = {
    SERVICE_SIGNING_JWK: JSON.stringify(await exportJWK(privateKey)),
    SECRET_KEY: crypto.randomBytes(32).toString('base64'),
    SPEECH_ENGINE: 'none',
    STREAMS_PER_PROVIDER: '4',
    STREAMS_PER_PARTNER: '0',
    RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_PER_MINUTE),
  };
  a = await startServer({ procfile: 'web', env });
  b = await startServer({ procfile: 'web', env, shareDatabaseWith: a });
  partner = await createTestPartner(a.baseUrl);
}, 480_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

async function openAmbient(server: TestServer, p: TestProvider): Promise<TestSocket> {
  const res = await testApi(server, p).call(createSession, { body: {} });
  const { ambient_session_id } = res.body as { ambient_session_id: string };
  return TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', ambient_session_id, p.serviceToken] });
}

/** A JSON POST sent from the given local address, which is the address the rate limit counts. */
function postFrom(localAddress: string, url: string, body: string): Promise<{ status: number; body: string; retryAfter: string | null }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('limits shared by two web processes on one database', () => {
  it('refuses the 5th stream of a provider on process B while 4 are open on process A, and lets it in once one ends', async () => {
    // Registered and logged in on A; its service token is accepted by B.
    const p = await registerAndLogin(a.baseUrl, partner);
    const onA: TestSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const ws = await openAmbient(a, p);
      expect(await ws.next(() => true, 'first frame')).toMatchObject({ type: 'STATUS', status: 'ready' });
      onA.push(ws);
    }
    const fifth = await openAmbient(b, p);
    const err = await fifth.next((f) => f.type === 'ERROR', 'ERROR');
    expect(err).toMatchObject({ code: 429 });
    expect(err.message).toMatch(/provider already has 4 open streams.*STREAMS_PER_PROVIDER/);
    expect((await fifth.closed).code).toBe(4429);

    // A ends one; the slot is back in the shared store before A's close reaches the client.
    onA[0]!.event('ABORT');
    await onA[0]!.closed;
    const again = await openAmbient(b, p);
    expect(await again.next(() => true, 'first frame')).toMatchObject({ type: 'STATUS', status: 'ready' });
    for (const ws of [...onA.slice(1), again]) ws.event('ABORT');
    await Promise.all([...onA.slice(1), again].map((ws) => ws.closed));
  }, 120_000);

  it('lets exactly the cap in when streams open on both processes at once', async () => {
    const p = await registerAndLogin(b.baseUrl, partner);
    const sockets = await Promise.all(Array.from({ length: 6 }, (_, i) => openAmbient(i % 2 ? b : a, p)));
    const firsts = await Promise.all(sockets.map((ws) => ws.next(() => true, 'first frame')));
    expect(firsts.filter((f) => f.type === 'STATUS' && f.status === 'ready')).toHaveLength(4);
    expect(firsts.filter((f) => f.type === 'ERROR' && f.code === 429)).toHaveLength(2);
    for (const ws of sockets) ws.event('ABORT');
    await Promise.all(sockets.map((ws) => ws.closed));
  }, 120_000);

  it('counts register attempts made on both processes against one limit', async () => {
    // From an address of its own (all of 127/8 is this machine), so no other test's attempts share the window.
    // Each attempt is a 400 that still counts, as a guesser's would.
    const accepted = { a: 0, b: 0 };
    let refusal: { status: number; body: { code: number; message: string }; retryAfter: string | null } | null = null;
    for (let i = 0; i < 2 * AUTH_PER_MINUTE && !refusal; i++) {
      const [name, server] = i % 2 ? (['b', b] as const) : (['a', a] as const);
      // Not through the typed client: fetch cannot choose the local address, which is what the limit counts.
      const res = await postFrom('127.0.0.7', `${server.baseUrl}${register.path}`, '{}');
      if (res.status === 429) refusal = { status: res.status, body: JSON.parse(res.body), retryAfter: res.retryAfter };
      else {
        expect(res.status).toBe(400);
        accepted[name]++;
      }
    }
    expect(refusal?.body).toMatchObject({ code: 429, message: expect.stringMatching(/too many register requests; retry after \d+ s/) });
    expect(Number(refusal?.retryAfter)).toBeGreaterThan(0);
    // One limit, not one per process: together they let in what one would, and each let some in.
    expect(accepted.a + accepted.b).toBe(AUTH_PER_MINUTE);
    expect(accepted.a).toBeGreaterThan(0);
    expect(accepted.b).toBeGreaterThan(0);
  }, 60_000);
});
