/**
 * Issue 26 items 1, 8 and 9: the server ends status event streams itself, with a last `event: end` naming
 * why: after SSE_MAX_LIFETIME_MS (the client reconnects), at shutdown (before the drain of requests, which
 * waited 15 s for them and then cut them without an end), and when the provider is disabled, which also
 * closes its /ws/ambient and /ws/transcribe streams (4403) once their audio is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../test/partners';
import { until } from '../test/until';
import { TestSocket } from '../test/ws-client';
import { readSse } from '@/lib/api/sse';
import { testApi } from '../test/api-client';
import { createSession as createSessionRoute, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { streamSessionStatus } from '@/lib/contracts/routes/session-status-events';
import { createTranscriptionSession } from '@/lib/contracts/routes/dictation';
import { disableProvider, enableProvider, listPartnerProviders } from '@/lib/contracts/routes/admin-providers';
import { getMetrics } from '@/lib/contracts/routes/meta';

let short: TestServer;
let server: TestServer;
let partner: TestPartner;
/** A colleague's stream the disable leaves open; the shutdown test ends it. */
let colleagueWatch: { ended: Promise<Event[]> } | undefined;

beforeAll(async () => {
  [short, server] = await Promise.all([
    startServer({ env: { SSE_MAX_LIFETIME_MS: '1500', SPEECH_ENGINE: 'none' } }),
    startServer({ env: { SPEECH_ENGINE: 'none' } }),
  ]);
  partner = await createTestPartner(server.baseUrl);
}, 300_000);

afterAll(async () => {
  await Promise.all([short?.stop(), server?.stop()]);
});

async function createSession(s: TestServer, p: TestProvider): Promise<string> {
  const res = await testApi(s, p).call(createSessionRoute, { body: {} });
  return (res.body as { ambient_session_id: string }).ambient_session_id;
}

interface Event {
  event: string;
  data: Record<string, string>;
  retry?: number;
}

/** Opens a stream and reads every event until the server ends it (rejects if the connection breaks instead). */
async function follow(s: TestServer, p: TestProvider, id: string): Promise<{ ended: Promise<Event[]> }> {
  const res = await testApi(s, p).send(streamSessionStatus, { params: { ambient_session_id: id } });
  expect(res.status).toBe(200);
  const events: Event[] = [];
  const ended = readSse(res.body!, (e) => events.push({ event: e.event, data: JSON.parse(e.data) as Record<string, string>, retry: e.retry })).then(() => events);
  // Awaited by the test that needs it; a break seen by no test must not be an unhandled rejection.
  ended.catch(() => {});
  return { ended };
}

async function providerIdOf(p: TestProvider): Promise<string> {
  const res = await testApi(server, 'admin').call(listPartnerProviders, { params: { partner_id: partner.partnerId }, query: { q: p.email } });
  return (res.body as { providers: Array<{ provider_id: string }> }).providers[0]!.provider_id;
}

async function sseOpen(): Promise<number> {
  const { text } = await testApi(server).call(getMetrics);
  return Number(/^ambient_sse_streams (\d+)$/m.exec(text)?.[1]);
}

describe('status event streams the server ends', () => {
  it('ends a stream after SSE_MAX_LIFETIME_MS with event: end (reason lifetime, retry set); the session is unchanged and a reconnect follows it again', async () => {
    const p = await registerAndLogin(short.baseUrl, await createTestPartner(short.baseUrl));
    const id = await createSession(short, p);
    const first = await follow(short, p, id);
    const events = await first.ended;
    expect(events.map((e) => e.event)).toEqual(['status', 'end']);
    expect(events[0]!.data).toEqual({ status: 'created' });
    expect(events[1]!.data.reason).toBe('lifetime');
    expect(events[1]!.data.message).toMatch(/SSE_MAX_LIFETIME_MS.*reconnect/);
    expect(events[1]!.retry).toBe(1000);
    const again = await follow(short, p, id);
    expect((await again.ended)[0]!.data).toEqual({ status: 'created' });
  }, 120_000);

  it("disabling a provider ends its status streams and closes its /ws/ambient and /ws/transcribe streams with 4403 after storing the audio; a colleague's stream stays", async () => {
    const p = await registerAndLogin(server.baseUrl, partner);
    const colleague = await registerAndLogin(server.baseUrl, partner);
    const id = await createSession(server, p);
    const watching = await follow(server, p, id);
    colleagueWatch = await follow(server, colleague, await createSession(server, colleague));

    const ambient = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, p.serviceToken] });
    ambient.startTime();
    await ambient.sendPcm(Buffer.alloc(32_000 * 2));
    await ambient.next((f) => f.type === 'ACK' && (f.received_ms as number) >= 2000, 'ACK of 2 s');
    const dictationRes = await testApi(server, p).call(createTranscriptionSession, { body: { audio_config: { audio_encoding: 'LINEAR16', sample_rate_hertz: 16000 } } });
    const dictationId = (dictationRes.body as { transcription_session_id: string }).transcription_session_id;
    const dictation = await TestSocket.open(`${server.wsUrl}/ws/transcribe`, { protocols: ['AmbientAuth', dictationId, p.serviceToken] });
    await dictation.next(() => true, 'first dictation frame');
    await until('both status streams counted', async () => ((await sseOpen()) === 2 ? true : undefined), 60_000);

    const providerId = await providerIdOf(p);
    const ofProvider = { params: { partner_id: partner.partnerId, provider_id: providerId } };
    const disabled = await testApi(server, 'admin').call(disableProvider, ofProvider);
    expect(disabled.status).toBe(200);

    expect(await ambient.closed).toEqual({ code: 4403, reason: 'provider is disabled' });
    expect(await dictation.closed).toEqual({ code: 4403, reason: 'provider is disabled' });
    const events = await watching.ended;
    expect(events.at(-1)).toMatchObject({ event: 'end', data: { reason: 'disabled', message: 'provider is disabled' } });
    // The colleague's stream is the one left.
    await until('only the colleague stream left', async () => ((await sseOpen()) === 1 ? true : undefined), 60_000);
    const reopened = await testApi(server, p).send(streamSessionStatus, { params: { ambient_session_id: id } });
    expect(reopened.status).toBe(403);

    // The close dropped the stream: the session was not finalised.
    const enabled = await testApi(server, 'admin').call(enableProvider, ofProvider);
    expect(enabled.status).toBe(200);
    const status = await testApi(server, p).call(getSessionStatus, { params: { ambient_session_id: id } });
    expect((status.body as { status: string }).status).toBe('ready');
  }, 180_000);

  it('at shutdown, open status streams get event: end (reason shutdown) and end cleanly before the process exits', async () => {
    expect(colleagueWatch).toBeDefined();
    const code = await server.stop();
    const events = await colleagueWatch!.ended;
    expect(events.map((e) => e.event)).toEqual(['status', 'end']);
    expect(events[1]).toMatchObject({ data: { reason: 'shutdown' }, retry: 1000 });
    expect(code).toBe(0);
    expect(server.logs()).toMatch(/"streams":1,"msg":"status event streams ended"/);
  }, 120_000);
});
