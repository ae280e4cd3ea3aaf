import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { synthesize } from '../engines/speech/synth';
import { testApi } from '../test/api-client';
import { createSession as createSessionRoute, getSessionStatus } from '@/lib/contracts/routes/sessions';

let server: TestServer;
let provider: TestProvider;

async function createSession(): Promise<string> {
  const res = await testApi(server, provider).call(createSessionRoute, { body: {} });
  return (res.body as { ambient_session_id: string }).ambient_session_id;
}

async function status(id: string): Promise<string> {
  const res = await testApi(server, provider).call(getSessionStatus, { params: { ambient_session_id: id } });
  return (res.body as { status: string }).status;
}

function open(id: string): Promise<TestSocket> {
  return TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
}

beforeAll(async () => {
  // Small limits, and no speech engine: streaming must work without a live transcript.
  server = await startServer({ env: { WS_IDLE_TIMEOUT_MS: '1500', WS_MAX_AHEAD_MS: '2000', SPEECH_ENGINE: 'none' } });
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe('/ws/ambient limits', () => {
  it('closes an idle connection with ERROR 408 and 4408; the session stays ready', async () => {
    const id = await createSession();
    const ws = await open(id);
    const err = await ws.next((f) => f.type === 'ERROR', 'ERROR');
    expect(err.code).toBe(408);
    expect(err.message).toMatch(/KEEP_ALIVE/);
    expect((await ws.closed).code).toBe(4408);
    expect(await status(id)).toBe('ready');
  }, 30_000);

  it('KEEP_ALIVE events keep a connection without audio open past the idle timeout', async () => {
    const id = await createSession();
    const ws = await open(id);
    for (let i = 0; i < 8; i++) {
      ws.event('KEEP_ALIVE');
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(ws.closeInfo).toBeNull();
    expect(ws.frames.some((f) => f.type === 'ERROR')).toBe(false);
    ws.event('ABORT');
    expect((await ws.closed).code).toBe(1000);
  }, 30_000);

  it('closes a client sending far faster than real time with ERROR 429 and 4429, keeping what was acknowledged', async () => {
    const id = await createSession();
    const ws = await open(id);
    ws.startTime();
    await ws.sendPcm(Buffer.alloc(32 * 10_000));
    const err = await ws.next((f) => f.type === 'ERROR', 'ERROR');
    expect(err.code).toBe(429);
    expect((await ws.closed).code).toBe(4429);
    // The allowance is 2 s ahead of the time the server has spent on the stream, which grows with its load:
    // some audio was kept, and not the 10 s sent at once.
    expect(ws.lastAckMs()).toBeGreaterThan(0);
    expect(ws.lastAckMs()).toBeLessThan(10_000);
  }, 30_000);

  it('streams without a speech engine: no live transcript, and an empty transcript ends as skipped', async () => {
    const id = await createSession();
    const ws = await open(id);
    ws.startTime();
    const pcm = synthesize('The patient has a cough.');
    // Paced within the 2 s allowance.
    await ws.sendPcm(pcm, { frameMs: 100, realTime: true });
    await ws.next((f) => f.type === 'ACK' && f.received_ms === Math.floor(pcm.length / 32), 'final ACK');
    ws.eof();
    await ws.closed;
    expect(ws.frames.some((f) => f.type === 'TRANSCRIPT')).toBe(false);
    const deadline = Date.now() + 60_000;
    let s = await status(id);
    while (!['completed', 'skipped', 'failed'].includes(s) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
      s = await status(id);
    }
    expect(s).toBe('skipped');
  }, 90_000);
});
