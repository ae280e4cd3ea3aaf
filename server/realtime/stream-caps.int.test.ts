/**
 * Issue #12 item 5: one provider could open streams without limit (300 idle streams took the process to
 * 6.95 GB). Streams are capped per provider and per partner, across /ws/ambient and /ws/transcribe, and
 * every way a stream ends gives its place back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { testApi } from '../test/api-client';
import { createSession as createSessionRoute, endSession, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { createTranscriptionSession } from '@/lib/contracts/routes/dictation';

let server: TestServer;
let partner: TestPartner;

beforeAll(async () => {
  server = await startServer({
    env: { SPEECH_ENGINE: 'none', STREAMS_PER_PROVIDER: '2', STREAMS_PER_PARTNER: '3', WS_IDLE_TIMEOUT_MS: '1500', WS_MAX_FRAME_BYTES: '8192' },
  });
  partner = await createTestPartner(server.baseUrl);
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

async function createSession(p: TestProvider): Promise<string> {
  const res = await testApi(server, p).call(createSessionRoute, { body: {} });
  return (res.body as { ambient_session_id: string }).ambient_session_id;
}

async function createDictation(p: TestProvider): Promise<string> {
  const res = await testApi(server, p).call(createTranscriptionSession, { body: { audio_config: { audio_encoding: 'LINEAR16', sample_rate_hertz: 16000 } } });
  return (res.body as { transcription_session_id: string }).transcription_session_id;
}

async function status(p: TestProvider, id: string): Promise<string> {
  const res = await testApi(server, p).call(getSessionStatus, { params: { ambient_session_id: id } });
  return (res.body as { status: string }).status;
}

const openAmbient = async (p: TestProvider, id?: string) =>
  TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id ?? (await createSession(p)), p.serviceToken] });
const openDictation = async (p: TestProvider) =>
  TestSocket.open(`${server.wsUrl}/ws/transcribe`, { protocols: ['AmbientAuth', await createDictation(p), p.serviceToken] });

/** A stream that was let in: its first frame is STATUS ready. */
async function accepted(ws: TestSocket): Promise<TestSocket> {
  const first = await ws.next(() => true, 'first frame');
  expect(first).toMatchObject({ type: 'STATUS', status: 'ready' });
  return ws;
}

async function refused(ws: TestSocket): Promise<{ message: string; reason: string }> {
  const err = await ws.next((f) => f.type === 'ERROR', 'ERROR');
  const closed = await ws.closed;
  expect(err.code).toBe(429);
  expect(closed.code).toBe(4429);
  expect(ws.frames.some((f) => f.type === 'STATUS')).toBe(false);
  return { message: err.message, reason: closed.reason };
}

/**
 * After a close the client started itself, the server lets go of the stream a moment later; a new stream
 * is tried until it is let in (a slot that never comes back fails the test with the refusal).
 */
async function openOnceFree(p: TestProvider): Promise<TestSocket> {
  for (let attempt = 0; ; attempt++) {
    const ws = await openAmbient(p);
    const first = await ws.next(() => true, 'first frame');
    if (first.type === 'STATUS') return ws;
    await ws.closed;
    if (attempt === 50) throw new Error(`slot never released: ${JSON.stringify(first)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('concurrent stream caps', () => {
  it('refuses a provider over STREAMS_PER_PROVIDER with ERROR 429 and 4429, before touching the session', async () => {
    const p = await registerAndLogin(server.baseUrl, partner);
    const one = await accepted(await openAmbient(p));
    const two = await accepted(await openDictation(p));
    const sessionId = await createSession(p);
    const r = await refused(await openAmbient(p, sessionId));
    expect(r.message).toMatch(/provider already has 2 open streams.*STREAMS_PER_PROVIDER/);
    expect(r.reason).toMatch(/STREAMS_PER_PROVIDER/);
    // Refused before the first stream would have moved it to ready.
    expect(await status(p, sessionId)).toBe('created');
    // Dictation counts against the same cap.
    expect((await refused(await openDictation(p))).message).toMatch(/STREAMS_PER_PROVIDER/);
    one.event('CANCEL');
    two.event('CANCEL');
    await Promise.all([one.closed, two.closed]);
  }, 60_000);

  it('refuses a partner over STREAMS_PER_PARTNER, while another partner streams on', async () => {
    const p1 = await registerAndLogin(server.baseUrl, partner);
    const p2 = await registerAndLogin(server.baseUrl, partner);
    const open = [await accepted(await openAmbient(p1)), await accepted(await openAmbient(p1)), await accepted(await openAmbient(p2))];
    const r = await refused(await openAmbient(p2));
    expect(r.message).toMatch(/partner already has 3 open streams.*STREAMS_PER_PARTNER/);
    const elsewhere = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const other = await accepted(await openAmbient(elsewhere));
    for (const ws of [...open, other]) ws.event('ABORT');
    await Promise.all([...open, other].map((ws) => ws.closed));
  }, 60_000);

  it('gives the slot back on EOF, CANCEL, ABORT, idle timeout, oversized frame, REST end, takeover, client close and a killed socket', async () => {
    const other = await createTestPartner(server.baseUrl);
    const p = await registerAndLogin(server.baseUrl, other);
    const held = await accepted(await openAmbient(p));
    const keepAlive = setInterval(() => held.event('KEEP_ALIVE'), 300);
    try {
      // Server-side endings: the slot is free by the time the client sees the close.
      const serverEnded: Array<[string, (ws: TestSocket, id: string) => Promise<unknown>]> = [
        ['EOF', async (ws) => (ws.ws.send(Buffer.alloc(3200)), await ws.next((f) => f.type === 'ACK', 'ACK'), ws.eof())],
        ['CANCEL', async (ws) => ws.event('CANCEL')],
        ['ABORT', async (ws) => ws.event('ABORT')],
        ['idle timeout', async () => {}],
        ['oversized frame', async (ws) => ws.ws.send(Buffer.alloc(8194))],
        ['REST end', async (_ws, id) => testApi(server, p).call(endSession, { params: { ambient_session_id: id }, body: {} })],
      ];
      for (const [name, endIt] of serverEnded) {
        const id = await createSession(p);
        const ws = await accepted(await openAmbient(p, id));
        await endIt(ws, id);
        const closed = await ws.closed;
        expect(closed.code, name).not.toBe(4429);
        await accepted(await openAmbient(p)).then((next) => (next.event('ABORT'), next.closed));
      }
      // A reconnect for the same session while at the cap takes over the old connection's slot.
      const id = await createSession(p);
      const first = await accepted(await openAmbient(p, id));
      const second = await accepted(await openAmbient(p, id));
      expect((await first.closed).code).toBe(4409);
      second.event('ABORT');
      await second.closed;
      // Endings the client starts: the server notices after the client does.
      const byClient = await accepted(await openAmbient(p));
      byClient.close();
      await byClient.closed;
      const afterClose = await openOnceFree(p);
      afterClose.terminate();
      await afterClose.closed;
      const afterKill = await openOnceFree(p);
      afterKill.event('ABORT');
      await afterKill.closed;
    } finally {
      clearInterval(keepAlive);
    }
    held.event('ABORT');
    await held.closed;
    // Nothing leaked: both slots open at once again, and a third is refused.
    const a = await accepted(await openAmbient(p));
    const b = await accepted(await openDictation(p));
    await refused(await openAmbient(p));
    a.event('ABORT');
    b.event('CANCEL');
    await Promise.all([a.closed, b.closed]);
  }, 120_000);

  it('does not let a refused or unauthenticated handshake take a slot', async () => {
    const p = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    for (let i = 0; i < 5; i++) {
      const bad = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', await createSession(p), 'not-a-token'] });
      expect((await bad.closed).code).toBe(4401);
      const unknown = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', crypto.randomUUID(), p.serviceToken] });
      expect((await unknown.closed).code).toBe(4404);
    }
    const a = await accepted(await openAmbient(p));
    const b = await accepted(await openAmbient(p));
    a.event('ABORT');
    b.event('ABORT');
    await Promise.all([a.closed, b.closed]);
  }, 60_000);
});
