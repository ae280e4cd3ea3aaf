import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';

/**
 * A local stand-in for a third-party OpenID Connect provider (none is reachable from here): it serves only
 * the discovery document, which is all the service reads before it sends a browser there to sign in.
 */
let idp: http.Server;
let issuer: string;
let server: TestServer;

beforeAll(async () => {
  idp = http.createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          userinfo_endpoint: `${issuer}/userinfo`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(idp.address() as { port: number }).port}`;
  server = await startServer({ env: { AUTH_OIDC_ISSUER: issuer, AUTH_OIDC_CLIENT_ID: 'ambient-console', AUTH_OIDC_CLIENT_SECRET: 'oidc-client-secret', AUTH_OIDC_NAME: 'Hospital SSO' } });
});
afterAll(async () => {
  await server?.stop();
  idp?.close();
});

describe('console sign-in through a configured OIDC provider', () => {
  it('offers the provider beside the credentials one and sends the browser to its authorization endpoint', async () => {
    const providers = await (await fetch(`${server.baseUrl}/api/auth/providers`)).json();
    expect(providers.oidc).toMatchObject({ id: 'oidc', name: 'Hospital SSO', type: 'oidc' });
    expect(Object.keys(providers)).toContain('credentials');

    const csrfRes = await fetch(`${server.baseUrl}/api/auth/csrf`);
    const { csrfToken } = await csrfRes.json();
    const cookie = (csrfRes.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
    const signin = await fetch(`${server.baseUrl}/api/auth/signin/oidc`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${server.baseUrl}/admin` }),
    });
    expect(signin.status).toBe(302);
    const location = new URL(signin.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${issuer}/authorize`);
    expect(location.searchParams.get('client_id')).toBe('ambient-console');
    expect(location.searchParams.get('response_type')).toBe('code');
    const redirect = new URL(location.searchParams.get('redirect_uri')!);
    expect(redirect.pathname).toBe('/api/auth/callback/oidc');
    expect(redirect.port).toBe(String(server.port));
    expect(location.searchParams.get('scope')).toContain('openid');
    expect(signin.headers.get('location')).not.toContain('oidc-client-secret');
  });
});
