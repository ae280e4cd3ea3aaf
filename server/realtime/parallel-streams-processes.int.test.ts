/**
 * Issue 26 item 5 across processes (PostgreSQL only: PGlite admits one process; run directly without
 * TEST_DATABASE_URL it fails, it does not skip). Two web processes on one database: handshakes for one
 * session on both leave one live stream, the older one closed with 4409, and an end made through one
 * process closes a stream held by the other at once (NOTIFY), with nothing more ACKed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTES_PER_MS, CLOSE } from '@/lib/contracts/stream-protocol';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { call, createSession } from '../test/session-api';
import { endSession } from '@/lib/contracts/routes/sessions';
import { TestSocket } from '../test/ws-client';

let a: TestServer;
let b: TestServer;
let provider: TestProvider;
let audioDir = '';

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('this test needs PostgreSQL: set TEST_DATABASE_URL (PGlite admits one process)');
  // One deployment: the same signing key, secret and audio directory in both processes.
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  audioDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ambient-shared-audio-'));
  const env = {
    SERVICE_SIGNING_JWK: JSON.stringify(await exportJWK(privateKey)),
    SECRET_KEY: crypto.randomBytes(32).toString('base64'),
    AUDIO_DIR: audioDir,
    SPEECH_ENGINE: 'none',
    WORKERS: '0',
    STREAMS_PER_PROVIDER: '50',
    WS_IDLE_TIMEOUT_MS: '20000',
  };
  a = await startServer({ env });
  b = await startServer({ env, shareDatabaseWith: a });
  provider = await registerAndLogin(a.baseUrl, await createTestPartner(a.baseUrl));
}, 240_000);

afterAll(async () => {
  for (const s of [a, b]) if (s?.proc.exitCode === null) await s.stop();
  if (audioDir) fs.rmSync(audioDir, { recursive: true, force: true });
});

const open = (server: TestServer, id: string) => TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
const ready = (ws: TestSocket) => ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');

describe('one live stream per session across web processes (issue 26 item 5)', () => {
  it('closes the older stream in the other process with 4409 once a newer one opens', async () => {
    const { ambient_session_id: id } = await createSession(a, provider);
    const first = await open(a, id);
    const r1 = await ready(first);
    const second = await open(b, id);
    const r2 = await ready(second);
    expect(r2.sequence_number).toBe(r1.sequence_number + 1);
    const closed = await first.closed;
    expect(closed).toEqual({ code: CLOSE.CONFLICT, reason: 'superseded by a newer connection for this session' });
    second.audio(Buffer.alloc(200 * BYTES_PER_MS));
    await second.next((f) => f.type === 'ACK' && f.received_ms === 200, 'ACK on the newer stream');
    second.event('ABORT');
    await second.closed;
  }, 120_000);

  it('closes a stream in one process when the session is ended through the other, with STATUS and 1000', async () => {
    const { ambient_session_id: id } = await createSession(a, provider);
    const ws = await open(a, id);
    await ready(ws);
    ws.audio(Buffer.alloc(300 * BYTES_PER_MS));
    await ws.next((f) => f.type === 'ACK' && f.received_ms === 300, 'ACK of 300 ms');
    expect((await call(b, provider, endSession, { params: { ambient_session_id: id } })).status).toBe(200);
    const close = await ws.closed;
    expect(close).toEqual({ code: CLOSE.NORMAL, reason: 'session is running' });
    expect(ws.frames).toContainEqual({ type: 'STATUS', status: 'running' });
    expect(Math.max(...ws.frames.filter((f) => f.type === 'ACK').map((f) => f.received_ms as number))).toBe(300);
  }, 120_000);
});
