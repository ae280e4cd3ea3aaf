import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { synthesize } from '../engines/speech/synth';
import { testApi } from '../test/api-client';
import { createSession, getSessionStatus } from '@/lib/contracts/routes/sessions';

let server: TestServer;
let provider: TestProvider;

beforeAll(async () => {
  // A notes engine that cannot be built (NOTES_ENGINE=openai without NOTES_MODEL) is a real deployment
  // mistake; finalisation must end the session as failed with NOTE_GENERATION_FAILED, not hang or 500.
  server = await startServer({ env: { NOTES_ENGINE: 'openai', NOTES_BASE_URL: 'http://127.0.0.1:9', NOTES_MODEL: '', FINALISE_RETRY_LIMIT: '0', WS_MAX_SESSION_SECONDS: '3' } });
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe('finalisation failure and the session length limit', () => {
  it('ends audio at WS_MAX_SESSION_SECONDS, then fails with NOTE_GENERATION_FAILED', async () => {
    const created = await testApi(server, provider).call(createSession, { body: {} });
    const { ambient_session_id: id } = created.body as { ambient_session_id: string };
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.startTime();
    const pcm = synthesize('I have had a bad headache and a cough for three days and my chest hurts when I breathe in.');
    expect(pcm.length).toBeGreaterThan(32 * 3000);
    await ws.sendPcm(pcm);
    const err = await ws.next((f) => f.type === 'ERROR', 'ERROR');
    expect(err.code).toBe(413);
    expect(err.message).toMatch(/maximum session length/);
    await ws.next((f) => f.type === 'STATUS' && f.status === 'running', 'STATUS running');
    expect((await ws.closed).code).toBe(1000);
    // Audio up to the limit is kept and acknowledged; nothing past it.
    expect(ws.lastAckMs()).toBe(3000);

    const deadline = Date.now() + 120_000;
    let status = '';
    while (Date.now() < deadline) {
      status = ((await testApi(server, provider).call(getSessionStatus, { params: { ambient_session_id: id } })).body as { status: string }).status;
      if (['completed', 'failed', 'skipped'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(status).toBe('failed');
    expect(server.logs()).toMatch(/"code":"NOTE_GENERATION_FAILED"/);
  }, 240_000);
});
