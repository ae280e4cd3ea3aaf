import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getServiceToken } from './clinician-call';

/**
 * The recorder's service token across a server restart (issue 25): the refresh after a 4401 fails while the
 * server is down, and the next attempt, once it is back, gets a new token rather than the one it replaced.
 * fetch stands in for the server's GET /api/app/token.
 */
const tokenResponse = (t: string) =>
  new Response(JSON.stringify({ service_token: t, provider_id: null, expires_at: new Date(Date.now() + 3600_000).toISOString() }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

describe('service token refresh across a server restart', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fails while the server is down and recovers with a fresh token once it is back', async () => {
    const qc = new QueryClient();
    let up = true;
    let minted = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        if (!up) throw new TypeError('Failed to fetch');
        return tokenResponse(`token-${++minted}`);
      }),
    );
    expect((await getServiceToken(qc)).service_token).toBe('token-1');
    up = false;
    await expect(getServiceToken(qc, true)).rejects.toThrow();
    up = true;
    // Not fresh: yet the token the failed refresh was replacing is not handed out again.
    expect((await getServiceToken(qc)).service_token).toBe('token-2');
    expect((await getServiceToken(qc)).service_token).toBe('token-2');
  }, 20_000);
});
