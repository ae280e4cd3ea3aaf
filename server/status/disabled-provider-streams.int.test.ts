/**
 * Issue 26 item 9, across processes: a provider disabled through one web process has its status event
 * streams and /ws/ambient streams on another web process of the same PostgreSQL database ended too, by that
 * process's sweep (DISABLED_STREAMS_SWEEP_MS), and its reconnects there refused.
 *
 * PostgreSQL only (PGlite admits one process): scripts/test.sh leaves it out of the PGlite pass by name and
 * runs it in the PostgreSQL pass; run directly without TEST_DATABASE_URL it fails, it does not skip.
 */
import crypto from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner } from '../test/partners';
import { until } from '../test/until';
import { TestSocket } from '../test/ws-client';
import { testApi } from '../test/api-client';
import { createSession } from '@/lib/contracts/routes/sessions';
import { streamSessionStatus } from '@/lib/contracts/routes/session-status-events';
import { disableProvider, listPartnerProviders } from '@/lib/contracts/routes/admin-providers';
import { getMetrics } from '@/lib/contracts/routes/meta';

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
    // Short, so the test waits little; the sweep's period is not what is tested.
    DISABLED_STREAMS_SWEEP_MS: '300',
  };
  a = await startServer({ procfile: 'web', env });
  b = await startServer({ procfile: 'web', env, shareDatabaseWith: a });
  partner = await createTestPartner(a.baseUrl);
}, 480_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('disabling a provider in one web process', () => {
  it("ends its status streams and closes its ambient stream (4403) in another process; a colleague's stream there stays", async () => {
    const p = await registerAndLogin(a.baseUrl, partner);
    const colleague = await registerAndLogin(a.baseUrl, partner);
    const create = async (who: typeof p) => ((await testApi(b, who).call(createSession, { body: {} })).body as { ambient_session_id: string }).ambient_session_id;
    const follow = (who: typeof p, sessionId: string, init?: RequestInit) => testApi(b, who).send(streamSessionStatus, { params: { ambient_session_id: sessionId }, init });
    const id = await create(p);

    const events = await follow(p, id);
    expect(events.status).toBe(200);
    const text = events.text();
    const ctrl = new AbortController();
    const kept = await follow(colleague, await create(colleague), { signal: ctrl.signal });
    expect(kept.status).toBe(200);
    const ws = await TestSocket.open(`${b.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, p.serviceToken] });
    ws.startTime();
    await ws.sendPcm(Buffer.alloc(32_000));
    await ws.next((f) => f.type === 'ACK' && (f.received_ms as number) >= 1000, 'ACK of 1 s');

    const admin = testApi(a, 'admin');
    const list = await admin.call(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { q: p.email } });
    const providerId = (list.body as { providers: Array<{ provider_id: string }> }).providers[0]!.provider_id;
    const disabled = await admin.call(disableProvider, { params: { partner_id: partner.partnerId, provider_id: providerId } });
    expect(disabled.status).toBe(200);

    expect(await ws.closed).toEqual({ code: 4403, reason: 'provider is disabled' });
    expect(await text).toMatch(/event: end\ndata: \{"reason":"disabled","message":"provider is disabled"\}\n\n$/);
    const open = async () => Number(/^ambient_sse_streams (\d+)$/m.exec((await testApi(b).call(getMetrics)).text)?.[1]);
    await until("only the colleague's stream left on B", async () => ((await open()) === 1 ? true : undefined), 60_000);
    // B's cached view of the provider lapses within seconds: then it refuses the provider there too.
    await until('B refuses the disabled provider', async () => {
      const res = await follow(p, id);
      await res.body?.cancel();
      return res.status === 403 ? true : undefined;
    }, 60_000);
    ctrl.abort();
  }, 240_000);
});
