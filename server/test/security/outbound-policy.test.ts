/**
 * Issue #12 item 6: partner JWKS URIs (fetched on an unauthenticated login) had no address check, no
 * size cap, and answers that told closed, hanging and open ports apart; a 300 MB document took 1.7 GB.
 * The JWKS loader now goes through the webhook's outbound policy. Real local HTTP servers play the
 * partner's key endpoint; private addresses are allowed here only where the test says so.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPartnerKeyCache, JWKS_MAX_BYTES } from '../../auth/partner-keys';
import { verifyPartnerToken } from '../../auth/verify-partner-token';
import { outboundRequest, OutboundError } from '../../http/outbound-request';
import { isLoopbackHost, metricsRefusal } from '../../http/metrics-access';

let server: http.Server;
let base: string;
let hits = 0;
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void;
let closedPort: number;
let token: string;
let jwks: unknown;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] };
  token = await new SignJWT({ email: 'dr@clinic.example' }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer('iss').setExpirationTime('5m').sign(privateKey);
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  hits = 0;
  answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
});

async function login(uri: string, allowPrivate: boolean): Promise<string> {
  const keys = createPartnerKeyCache({ allowPrivate, timeoutMs: 500 });
  const trust = { issuer: 'iss', audience: null, jwksUri: uri, jwks: null, emailClaim: 'email' };
  return verifyPartnerToken(token, trust, keys).then(
    (v) => `ok ${v.email}`,
    (err: Error) => err.message,
  );
}

describe('partner JWKS fetches', () => {
  it('verify a token against a reachable JWKS when private addresses are allowed', async () => {
    expect(await login(`${base}/jwks`, true)).toBe('ok dr@clinic.example');
  });

  it('never connect to a loopback JWKS unless WEBHOOK_ALLOW_PRIVATE is on', async () => {
    expect(await login(`${base}/jwks`, false)).toBe('partner JWKS could not be fetched');
    expect(await login(`http://[::ffff:0:7f00:1]:${new URL(base).port}/jwks`, false)).toBe('partner JWKS could not be fetched');
    expect(hits).toBe(0);
  });

  it('give one answer for a closed port, a hanging port, an error status, an oversized or non-JWKS document', async () => {
    const answers: Record<string, string> = {};
    answers.closed = await login(`http://127.0.0.1:${closedPort}/jwks`, true);
    answer = () => {}; // never answers: the timeout ends it
    answers.hanging = await login(`${base}/hang`, true);
    answer = (_req, res) => res.writeHead(404).end('no');
    answers.status = await login(`${base}/404`, true);
    answer = (_req, res) => {
      // Streams far past the cap without a content-length; the reader must stop at the cap.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    };
    answers.huge = await login(`${base}/huge`, true);
    answer = (_req, res) => res.writeHead(200).end('{"not":"a jwks"}');
    answers.shape = await login(`${base}/shape`, true);
    expect(answers).toEqual({
      closed: 'partner JWKS could not be fetched',
      hanging: 'partner JWKS could not be fetched',
      status: 'partner JWKS could not be fetched',
      huge: 'partner JWKS could not be fetched',
      shape: 'partner JWKS could not be fetched',
    });
  });
});

describe('outboundRequest', () => {
  it('stops reading at the size cap and reports it', async () => {
    answer = (_req, res) => res.writeHead(200, { 'content-length': String(JWKS_MAX_BYTES * 4) }).end(Buffer.alloc(JWKS_MAX_BYTES * 4));
    const err = await outboundRequest({ url: `${base}/big`, allowPrivate: true, timeoutMs: 2000, maxResponseBytes: JWKS_MAX_BYTES }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err).toMatchObject({ kind: 'too-large' });
  });

  it('does not follow redirects', async () => {
    answer = (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    const res = await outboundRequest({ url: `${base}/r`, allowPrivate: true, timeoutMs: 2000, maxResponseBytes: 1024 });
    expect(res.status).toBe(302);
    expect(hits).toBe(1);
  });
});

describe('/metrics exposure', () => {
  const req = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as http.IncomingMessage;
  it('is open on a loopback HOST without a token', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.1.2.3']) expect(metricsRefusal(req(), { host }), host).toBeNull();
  });
  it('is refused on any other HOST until METRICS_TOKEN is set (issue #12)', () => {
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(metricsRefusal(req(), { host: '0.0.0.0' })).toMatchObject({ status: 403, message: expect.stringMatching(/METRICS_TOKEN/) });
    expect(metricsRefusal(req(), { host: '::' })?.status).toBe(403);
  });
  it('requires the token whenever one is set, on any HOST', () => {
    expect(metricsRefusal(req(), { host: '127.0.0.1', token: 's3cret' })?.status).toBe(401);
    expect(metricsRefusal(req('Bearer wrong'), { host: '0.0.0.0', token: 's3cret' })?.status).toBe(401);
    expect(metricsRefusal(req('Bearer s3cret'), { host: '0.0.0.0', token: 's3cret' })).toBeNull();
  });
});
