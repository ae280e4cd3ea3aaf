import { encode } from '@auth/core/jwt';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { createConsoleResolver } from './console-resolver';

const SECRET = 'test-secret-0123456789abcdefghijklmnop';
const NAME = 'authjs.session-token';

/** Rejections that happen before any database read; the accepting path is covered by admin-console.int.test.ts. */
const noDb = {
  db: new Proxy({}, { get: () => { throw new Error('the resolver must not query the database here'); } }),
} as unknown as AppContext;

function req(cookie: string | null, init: { method?: string; origin?: string; site?: string } = {}) {
  const headers: Record<string, string> = { host: 'console.example' };
  if (cookie) headers.cookie = cookie;
  if (init.origin) headers.origin = init.origin;
  if (init.site) headers['sec-fetch-site'] = init.site;
  return new Request('http://console.example/api/admin/v1/partners', { method: init.method ?? 'GET', headers });
}

describe('console admin resolver', () => {
  const resolve = createConsoleResolver(noDb, SECRET);

  it('is null without a session cookie, with a malformed one, or one sealed with another secret or salt', async () => {
    expect(await resolve(req(null))).toBeNull();
    expect(await resolve(req(`${NAME}=garbage`))).toBeNull();
    const otherSecret = await encode({ token: { sub: 'u1' }, secret: 'another-secret-0123456789abcdefghij', salt: NAME });
    expect(await resolve(req(`${NAME}=${otherSecret}`))).toBeNull();
    const otherSalt = await encode({ token: { sub: 'u1' }, secret: SECRET, salt: 'authjs.csrf-token' });
    expect(await resolve(req(`${NAME}=${otherSalt}`))).toBeNull();
  });

  it('refuses a valid session cookie on a cross-site write before looking the user up', async () => {
    const token = await encode({ token: { sub: '00000000-0000-4000-8000-000000000001' }, secret: SECRET, salt: NAME });
    expect(await resolve(req(`${NAME}=${token}`, { method: 'POST', origin: 'https://evil.example' }))).toBeNull();
    expect(await resolve(req(`${NAME}=${token}`, { method: 'DELETE', site: 'cross-site' }))).toBeNull();
  });

  it('ignores an expired session', async () => {
    const token = await encode({ token: { sub: '00000000-0000-4000-8000-000000000001' }, secret: SECRET, salt: NAME, maxAge: -10 });
    expect(await resolve(req(`${NAME}=${token}`))).toBeNull();
  });
});
