/**
 * Issue 26 item 5: parallel reconnects to one session opened several live /ws/ambient streams (3 concurrent
 * handshakes left 2 open, 10 left 4), and after EOF on one of them finalised the session another kept
 * ACKing audio that would never be in a transcript. Take-over and registration are atomic per session, and
 * a stream whose session stops accepting audio ends at once: nothing more is ACKed. Runs on PostgreSQL too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTES_PER_MS, CLOSE } from '@/lib/contracts/stream-protocol';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { call, createSession } from '../test/session-api';
import { endSession } from '@/lib/contracts/routes/sessions';
import { TestSocket } from '../test/ws-client';

let server: TestServer;
let provider: TestProvider;

beforeAll(async () => {
  // The idle timeout bounds the wait for a stream left open by mistake: it then closes with 4408, not 4409.
  server = await startServer({ env: { SPEECH_ENGINE: 'none', STREAMS_PER_PROVIDER: '50', STREAMS_PER_PARTNER: '50', WS_IDLE_TIMEOUT_MS: '15000' } });
  const partner = await createTestPartner(server.baseUrl);
  provider = await registerAndLogin(server.baseUrl, partner);
}, 240_000);

afterAll(async () => {
  if (server?.proc.exitCode === null) await server.stop();
});

const open = (sessionId: string) => TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', sessionId, provider.serviceToken] });

/** Resolves once `n` of the sockets have closed, with the ones still open. */
async function untilClosed(sockets: TestSocket[], n: number): Promise<TestSocket[]> {
  await new Promise<void>((resolve) => {
    let closed = 0;
    for (const s of sockets) void s.closed.then(() => ++closed === n && resolve());
  });
  return sockets.filter((s) => !s.closeInfo);
}

const acks = (ws: TestSocket) => ws.frames.filter((f) => f.type === 'ACK');

describe('one live stream per session (issue 26 item 5)', () => {
  it('leaves exactly one of 8 concurrent handshakes open, and after its EOF no other stream ACKs', async () => {
    const { ambient_session_id: id } = await createSession(server, provider);
    const sockets = await Promise.all(Array.from({ length: 8 }, () => open(id)));
    const left = await untilClosed(sockets, sockets.length - 1);
    expect(left).toHaveLength(1);
    const closed = sockets.filter((s) => s.closeInfo);
    // Each one that lost was told why: taken over by a newer connection (or refused as one), never idle.
    for (const s of closed) {
      expect(s.closeInfo!.code).toBe(CLOSE.CONFLICT);
      expect(s.frames.some((f) => f.type === 'ERROR' && f.code === 409)).toBe(true);
    }
    const survivor = left[0]!;
    expect(await survivor.next(() => true, 'first frame')).toMatchObject({ type: 'STATUS', status: 'ready' });

    const pcm = Buffer.alloc(500 * BYTES_PER_MS);
    survivor.audio(pcm);
    await survivor.next((f) => f.type === 'ACK' && f.received_ms === 500, 'ACK of 500 ms');
    survivor.eof();
    await survivor.next((f) => f.type === 'STATUS' && f.status === 'running', 'STATUS running');
    expect((await survivor.closed).code).toBe(CLOSE.NORMAL);
    // A stream taken over before any audio acknowledges none (an ACK of 0 ms at most).
    for (const s of closed) expect(acks(s).filter((f) => f.received_ms > 0)).toEqual([]);
  }, 120_000);

  it('ends a stream at once when its session is ended elsewhere: audio sent after the end is never ACKed', async () => {
    const { ambient_session_id: id } = await createSession(server, provider);
    const ws = await open(id);
    await ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
    ws.audio(Buffer.alloc(300 * BYTES_PER_MS));
    await ws.next((f) => f.type === 'ACK' && f.received_ms === 300, 'ACK of 300 ms');

    const ended = await call(server, provider, endSession, { params: { ambient_session_id: id } });
    expect(ended.status).toBe(200);
    // The session is no longer accepting audio: what arrives now must not be stored or acknowledged.
    ws.audio(Buffer.alloc(700 * BYTES_PER_MS));
    const close = await ws.closed;
    expect(close.code).toBe(CLOSE.NORMAL);
    expect(close.reason).toMatch(/^session is (running|completed|skipped|failed)$/);
    expect(Math.max(...acks(ws).map((f) => f.received_ms as number))).toBe(300);
    expect(ws.frames).toContainEqual(expect.objectContaining({ type: 'STATUS', status: expect.stringMatching(/^(running|completed|skipped|failed)$/) }));
  }, 60_000);

  it('refuses a stream for a session that is no longer accepting audio with a clear close', async () => {
    const { ambient_session_id: id } = await createSession(server, provider);
    expect((await call(server, provider, endSession, { params: { ambient_session_id: id } })).status).toBe(200);
    const ws = await open(id);
    const err = await ws.next((f) => f.type === 'ERROR', 'ERROR');
    expect(err.code).toBe(409);
    expect((await ws.closed).code).toBe(CLOSE.CONFLICT);
    expect(ws.frames.some((f) => f.type === 'STATUS')).toBe(false);
  }, 60_000);
});
