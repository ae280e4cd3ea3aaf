/**
 * Issue #12 reproductions against the real server, each of which failed before its fix: a catastrophic
 * provider_id pattern, unbounded bodies on routes Next handles, JWKS URIs pointing inside the network,
 * silent TCP connections held for ever, an absolute-form request line, /metrics open on a public HOST,
 * and SIGTERM with streams, idle sockets and a request in flight; and from issue #26 the page CSP (a nonce per
 * view, no inline or any-host allowance) and webhook hosts with a trailing dot.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin, type TestPartner } from '../partners';
import { TestSocket } from '../ws-client';
import { infoRoute, testApi } from '../api-client';
import { updatePartner } from '@/lib/contracts/routes/admin-partners';
import { login as loginRoute } from '@/lib/contracts/routes/auth';
import { getHealth, getMetrics } from '@/lib/contracts/routes/meta';
import { receiveNotification } from '@/lib/contracts/routes/webhook-receiver';
import { createSession } from '@/lib/contracts/routes/sessions';

let server: TestServer;
let internal: http.Server;
let internalHits = 0;

beforeAll(async () => {
  // Stands for a service inside the network (admin port, metadata): it must never be contacted.
  internal = http.createServer((_req, res) => {
    internalHits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  server = await startServer({
    env: {
      WEBHOOK_ALLOW_PRIVATE: 'false',
      SPEECH_ENGINE: 'none',
      // Listening beyond loopback without METRICS_TOKEN: /metrics must not be published.
      HOST: '0.0.0.0',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      BODY_LIMIT_BYTES: String(64 * 1024),
      RATE_LIMIT_AUTH_PER_MINUTE: '0',
    },
  });
}, 240_000);

afterAll(async () => {
  if (server?.proc.exitCode === null) await server.stop();
  await new Promise<void>((r) => internal?.close(() => r()));
});

/** One raw exchange; resolves with what came back before the server closed (or `wait` ms of quiet). */
function raw(request: string | Buffer, opts: { keepWriting?: boolean } = {}): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => {
      data += d.toString('latin1');
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const len = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
      if (rest.length && Buffer.byteLength(rest.join('\r\n\r\n'), 'latin1') >= len) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
    if (opts.keepWriting) {
      // A client that keeps streaming a body: the server must answer without waiting for (or storing) it.
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const pump = () => {
        while (!socket.destroyed && socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`));
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    }
  });
}

describe('provider_id_pattern cannot stall the server (item 3)', () => {
  it('runs (a+)+ against 40 × "a" + "!" in linear time and answers the login with 400', async () => {
    const partner: TestPartner = await createTestPartner(server.baseUrl, { type: 'BEARER' });
    const patch = await testApi(server.baseUrl, 'admin').send(updatePartner, { params: { partner_id: partner.partnerId }, body: { provider_id_pattern: '(a+)+' } });
    expect(patch.status).toBe(200);
    // With a backtracking engine this one login blocks the event loop for minutes (2.6× per two characters).
    const login = await testApi(server.baseUrl, { 'content-type': 'application/json' }).send(loginRoute, { body: { partner_id: partner.partnerId, partner_token: await partner.token(), provider_id: `${'a'.repeat(40)}!` } });
    expect(login.status).toBe(400);
    expect(await login.json()).toEqual({ code: 400, message: 'provider_id: does not match the format agreed for this partner' });
    const health = await testApi(server.baseUrl).send(getHealth);
    expect(health.status).toBe(200);
  }, 60_000);

  it('refuses a pattern RE2 cannot run when it is saved, naming the field', async () => {
    const partner = await createTestPartner(server.baseUrl, { type: 'BEARER' });
    const patch = await testApi(server.baseUrl, 'admin').send(updatePartner, { params: { partner_id: partner.partnerId }, body: { provider_id_pattern: '(a+)\\1' } });
    expect(patch.status).toBe(400);
    expect(((await patch.json()) as { message: string }).message).toMatch(/^provider_id_pattern: must be a valid RE2 regular expression/);
  });
});

describe('request bodies are capped on every route, Next-handled ones included (item 4)', () => {
  it('answers 413 to a declared 300 MB body on POST /webhooks/notification without reading it', async () => {
    const r = await raw(`POST /webhooks/notification HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${300 * 1024 * 1024}\r\n\r\n{"a":`);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ code: 413, message: `request body is larger than ${64 * 1024} bytes (BODY_LIMIT_BYTES)` });
  });

  it('answers 413 to an endless chunked body on POST /api/auth/callback/credentials and closes the connection', async () => {
    const r = await raw(`POST /api/auth/callback/credentials HTTP/1.1\r\nhost: x\r\ncontent-type: application/x-www-form-urlencoded\r\ntransfer-encoding: chunked\r\n\r\n`, { keepWriting: true });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).code).toBe(413);
    expect(r.head.toLowerCase()).toContain('connection: close');
  });

  it('still serves bodies under the limit on the same routes', async () => {
    // The reference receiver has no WEBHOOK_RECEIVER_SECRET here, so it answers 503 itself: the body got through.
    const res = await testApi(server.baseUrl, { 'content-type': 'application/json' }).send(receiveNotification, { body: {} });
    expect(res.status).not.toBe(413);
    expect(((await res.json()) as { code: number }).code).toBe(res.status);
  });
});

describe('partner JWKS URIs go through the outbound policy (item 6)', () => {
  const jwksPartner = async (jwksUri: string) => {
    const base = await createTestPartner(server.baseUrl);
    const patch = await testApi(server.baseUrl, 'admin').send(updatePartner, { params: { partner_id: base.partnerId }, body: { jwks: null, jwks_uri: jwksUri } });
    expect(patch.status).toBe(200);
    return base;
  };
  const login = async (partner: TestPartner) =>
    testApi(server.baseUrl, { 'content-type': 'application/json' }).send(loginRoute, { body: { partner_id: partner.partnerId, partner_token: await partner.token() } });

  it('never contacts loopback, metadata or a name resolving to loopback, and says only that the JWKS could not be fetched', async () => {
    const port = (internal.address() as AddressInfo).port;
    const targets = [`http://127.0.0.1:${port}/jwks`, `http://localhost:${port}/jwks`, `http://[::ffff:0:7f00:1]:${port}/jwks`, 'http://169.254.169.254/latest/meta-data/jwks'];
    for (const uri of targets) {
      const res = await login(await jwksPartner(uri));
      expect(res.status, uri).toBe(401);
      expect(await res.json(), uri).toEqual({ code: 401, message: 'partner JWKS could not be fetched' });
    }
    expect(internalHits).toBe(0);
    expect(server.logs()).toMatch(/"reason":"refused: JWKS host 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/);
  });
});

describe('connection limits (items 10 and 12)', () => {
  it('closes a connection that sends nothing once the header timeout passes, releasing the socket', async () => {
    const closedByServer = await new Promise<string>((resolve) => {
      const socket = net.connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
      let data = '';
      socket.on('data', (d) => (data += d));
      // The server's FIN alone is not enough (it used to half-close and keep the socket): writing after it
      // must meet a closed socket, which the second write at the latest reports as an error.
      let poke: NodeJS.Timeout | undefined;
      socket.on('end', () => (poke = setInterval(() => socket.write('x'), 100)));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(poke);
        resolve(data);
      });
    });
    expect(closedByServer).toMatch(/^HTTP\/1\.1 408/);
  }, 60_000);

  it('answers an absolute-form request line for a foreign host without redirecting there', async () => {
    for (const target of ['http://evil.example/login/', 'http://evil.example/api/v1/info', 'https://evil.example//evil.example/x']) {
      const r = await raw(`GET ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
      expect(r.status, target).toBeGreaterThan(0);
      expect(r.head.toLowerCase(), target).not.toMatch(/location:[^\r\n]*evil\.example/);
    }
    const path = await raw(`GET http://evil.example/api/health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
    expect(path.status).toBe(200);
    expect(path.body).toContain('{"status":"ok"}');
  });

  it('does not serve /metrics on a non-loopback HOST without METRICS_TOKEN', async () => {
    const res = await testApi(server.baseUrl).send(getMetrics);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/METRICS_TOKEN/);
  });
});

describe('Content-Security-Policy and webhook hosts (issue 26 item 10)', () => {
  it('gives each page view its own script nonce, on every script Next renders, and no inline or any-host allowance', async () => {
    const policies: string[] = [];
    for (const p of ['/login', '/login', '/docs']) {
      const res = await fetch(`${server.baseUrl}${p}`);
      expect(res.status, p).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce, p).toBeTruthy();
      const directive = (name: string) => csp.split(/;\s*/).find((d) => d.startsWith(`${name} `));
      expect(directive('script-src'), p).toBe(`script-src 'self' 'nonce-${nonce}'`);
      expect(directive('connect-src'), p).toBe(`connect-src 'self' ws://${new URL(server.baseUrl).host} wss://${new URL(server.baseUrl).host}`);
      expect(directive('frame-ancestors'), p).toBe("frame-ancestors 'none'");
      const html = await res.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, p).toBeGreaterThan(0);
      expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`)), p).toEqual([]);
      policies.push(nonce!);
    }
    expect(new Set(policies).size).toBe(policies.length);
  });

  it('lets API answers load nothing', async () => {
    const res = await testApi(server.baseUrl).send(infoRoute('loincs'));
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  });

  it('refuses a webhook host with a trailing dot at save, naming the field', async () => {
    const partner = await createTestPartner(server.baseUrl);
    const res = await testApi(server.baseUrl, 'admin').send(updatePartner, { params: { partner_id: partner.partnerId }, body: { webhook_url: 'https://partner.example.com./hook' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, message: 'webhook_url: host partner.example.com. must not end with a dot; write partner.example.com' });
  });
});

describe('SIGTERM with streams, idle sockets and a request in flight (item 13)', () => {
  it('finishes the in-flight request, closes the stream and idle sockets, and exits 0', async () => {
    const partner = await createTestPartner(server.baseUrl);
    const dr = await registerAndLogin(server.baseUrl, partner);
    const created = await testApi(server.baseUrl, dr.headers).send(createSession, { body: {} });
    const { ambient_session_id: sessionId } = (await created.json()) as { ambient_session_id: string };
    const stream = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', sessionId, dr.serviceToken] });
    stream.json({ type: 'AUDIO', data: Buffer.alloc(3200).toString('base64') });
    await stream.next((f) => f.type === 'ACK', 'ACK');
    const idle = await Promise.all(
      Array.from({ length: 20 }, () => new Promise<Promise<void>>((resolve) => {
        const s = net.connect(server.port, '127.0.0.1', () => resolve(new Promise<void>((closed) => s.on('close', () => closed()))));
        s.on('error', () => {});
        // Flowing, so the server's FIN is seen and 'close' follows.
        s.resume();
      })),
    );
    const kept = await testApi(server.baseUrl).send(getHealth, { init: { keepalive: true } });
    expect(kept.status).toBe(200);

    // A request whose body is still arriving when the signal lands.
    const inFlight = net.connect(server.port, '127.0.0.1');
    let answer = '';
    inFlight.on('data', (d) => (answer += d));
    inFlight.on('error', () => {});
    const answered = new Promise<void>((r) => inFlight.on('close', () => r()));
    const body = JSON.stringify({ partner_id: partner.partnerId, partner_token: 'not-a-jwt' });
    inFlight.write(`POST /api/v1/auth/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((r) => setTimeout(r, 200));

    const exited = server.stop();
    await new Promise((r) => setTimeout(r, 200));
    inFlight.write(body.slice(10));
    expect(await exited).toBe(0);
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect((await stream.closed).code).toBeGreaterThan(0);
    // Every idle socket was closed by the server (a socket left open would keep this waiting).
    await Promise.all(idle);
    // In order: the in-flight request drained, then services (streams) stopped, without the 15 s hard close.
    expect(server.logs()).toMatch(/"msg":"requests drained"[\s\S]*"msg":"stopped"/);
    expect(server.logs()).not.toMatch(/forcing exit/);
  }, 120_000);
});
