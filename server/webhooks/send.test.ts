import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendWebhook } from './send';
import type { Resolver } from '../http/outbound-address';

/** A real local receiver whose answer each test chooses. */
let server: http.Server;
let port: number;
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void;
let received: Array<{ headers: http.IncomingHttpHeaders; body: string; url: string }>;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' });
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  received = [];
  answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"ok"}');
});

const base = { headers: { 'content-type': 'application/json', 'x-test': '1' }, body: '{"state":"COMPLETED"}', timeoutMs: 3000 };

describe('sendWebhook', () => {
  it('posts the exact body and headers and reports a 2xx as delivered', async () => {
    const r = await sendWebhook({ ...base, url: `http://127.0.0.1:${port}/webhooks/notification?x=1`, allowPrivate: true });
    expect(r).toMatchObject({ ok: true, status: 200, error: null, retryable: false, address: '127.0.0.1' });
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/webhooks/notification?x=1');
    expect(received[0]!.body).toBe(base.body);
    expect(received[0]!.headers['x-test']).toBe('1');
    expect(received[0]!.headers['content-length']).toBe(String(base.body.length));
  });

  it('connects to the address it checked, not to a second DNS answer (rebinding)', async () => {
    let calls = 0;
    // First answer: where the receiver is. Any later answer points somewhere else entirely.
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.255.255.1', family: 4 }]);
    const r = await sendWebhook({ ...base, url: `http://receiver.test:${port}/hook`, allowPrivate: true, resolver: rebinding });
    expect(r.ok).toBe(true);
    expect(calls).toBe(1);
    expect(received[0]!.headers.host).toBe(`receiver.test:${port}`);
  });

  it('refuses a name that resolves to loopback without sending anything', async () => {
    const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const r = await sendWebhook({ ...base, url: `http://innocent.example:${port}/hook`, allowPrivate: false, resolver: toLoopback });
    expect(r).toMatchObject({ ok: false, retryable: false, status: null, address: null });
    expect(r.error).toMatch(/refused: webhook host innocent\.example resolves to 127\.0\.0\.1, a loopback address/);
    expect(received).toHaveLength(0);
  });

  it('does not follow redirects and does not retry them', async () => {
    answer = (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    const r = await sendWebhook({ ...base, url: `http://127.0.0.1:${port}/hook`, allowPrivate: true });
    expect(r).toMatchObject({ ok: false, status: 302, retryable: false });
    expect(r.error).toMatch(/redirect to http:\/\/127\.0\.0\.1:\d+\/elsewhere not followed/);
    expect(received.map((x) => x.url)).toEqual(['/hook']);
  });

  it('marks 503 and 429 retryable and 400 final, keeping a snippet of the answer', async () => {
    answer = (_req, res) => res.writeHead(503).end('upstream down');
    expect(await sendWebhook({ ...base, url: `http://127.0.0.1:${port}/`, allowPrivate: true })).toMatchObject({ status: 503, retryable: true, error: 'HTTP 503: upstream down' });
    answer = (_req, res) => res.writeHead(429).end();
    expect(await sendWebhook({ ...base, url: `http://127.0.0.1:${port}/`, allowPrivate: true })).toMatchObject({ status: 429, retryable: true });
    answer = (_req, res) => res.writeHead(400).end('{"code":400,"message":"unknown status"}');
    expect(await sendWebhook({ ...base, url: `http://127.0.0.1:${port}/`, allowPrivate: true })).toMatchObject({
      status: 400,
      retryable: false,
      error: 'HTTP 400: {"code":400,"message":"unknown status"}',
    });
  });

  it('gives up on a receiver that does not answer within the timeout, as a retryable failure', async () => {
    answer = () => {}; // never answers
    const r = await sendWebhook({ ...base, url: `http://127.0.0.1:${port}/slow`, allowPrivate: true, timeoutMs: 300 });
    expect(r).toMatchObject({ ok: false, status: null, retryable: true, error: 'timed out after 300 ms' });
  });

  it('reports a refused connection as a retryable network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await sendWebhook({ ...base, url: `http://127.0.0.1:${freePort}/`, allowPrivate: true });
    expect(r).toMatchObject({ ok: false, status: null, retryable: true, error: 'request failed: ECONNREFUSED' });
  });

  it('refuses non-http schemes', async () => {
    const r = await sendWebhook({ ...base, url: 'file:///etc/passwd', allowPrivate: true });
    expect(r).toMatchObject({ ok: false, retryable: false, error: 'webhook URL scheme file: is not http or https' });
  });
});
