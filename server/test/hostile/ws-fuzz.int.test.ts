/**
 * Malformed traffic on /ws/ambient: garbage text and binary frames, broken base64, frames over the limit,
 * audio far faster than real time, audio with no START_TIME, hostile handshakes. The server must answer
 * with ERROR frames or 4xxx close codes (never 1011, never a crash), and a well-behaved stream opened
 * afterwards must still be acknowledged.
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../partners';
import { TestSocket, type Frame } from '../ws-client';

let server: TestServer;
let provider: TestProvider;
const MAX_FRAME = 16 * 1024;

beforeAll(async () => {
  server = await startServer({ env: { SPEECH_ENGINE: 'none', WS_MAX_FRAME_BYTES: String(MAX_FRAME), WS_MAX_AHEAD_MS: '3000', LOG_LEVEL: 'warn' } });
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
});
afterAll(async () => {
  await server?.stop();
});

async function createSession(): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers: provider.headers, body: '{}' });
  return ((await res.json()) as { ambient_session_id: string }).ambient_session_id;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

const textFrame = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.record({ type: fc.constantFrom('START_TIME', 'AUDIO', 'EVENT', 'NOPE', '', 42), data: fc.oneof(fc.string({ maxLength: 50 }), fc.integer(), fc.constant(null)), event: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('KEEP_ALIVE', 'PAUSE', 'RESUME', 'ABORT'), fc.integer()) }, { requiredKeys: ['type'] }).map((o) => JSON.stringify(o)),
  fc.constantFrom(
    '{"type":"AUDIO","data":"!!!not base64!!!"}',
    '{"type":"AUDIO","data":"QUJD"}', // 3 bytes: odd PCM
    '{"type":"AUDIO","data":"QQ"}',
    '{"type":"AUDIO","data":"===="}',
    `{"type":"START_TIME","data":"${b64('yesterday')}"}`,
    `{"type":"START_TIME","data":"${b64('2026-13-45T99:99:99Z')}"}`,
    '{"type":"START_TIME","data":"%%%"}',
    `{"type":"AUDIO","data":"${'A'.repeat(MAX_FRAME * 2)}"}`,
    '{"type":"EVENT","event":"CANCEL"',
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
    '{"__proto__":{"type":"AUDIO"}}',
    '\u0000\u0001\u0002',
    '🩺'.repeat(500),
  ),
);
const binaryFrame = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 64 }),
  fc.constantFrom(Buffer.alloc(3), Buffer.alloc(MAX_FRAME + 2), Buffer.from([0xff, 0xfe, 0xfd])),
);
const frameArb = fc.oneof({ weight: 3, arbitrary: textFrame.map((t) => ({ text: t })) }, { weight: 1, arbitrary: binaryFrame.map((b) => ({ bin: Buffer.from(b) })) });

function expectWellFormedErrors(frames: Frame[]): void {
  for (const f of frames) {
    expect(['ACK', 'STATUS', 'ERROR', 'TRANSCRIPT']).toContain(f.type);
    if (f.type === 'ERROR') {
      expect(f.code).toBeGreaterThanOrEqual(400);
      expect(f.code).toBeLessThan(500);
      expect(typeof f.message).toBe('string');
      expect(f.message.length).toBeGreaterThan(0);
    }
  }
}

describe('hostile WebSocket traffic on /ws/ambient', () => {
  it('answers random garbage frames with ERROR frames and 4xxx closes, never 1011', async () => {
    const runs = fc.sample(fc.array(frameArb, { minLength: 5, maxLength: 40 }), { numRuns: 30, seed: 424242 });
    for (const frames of runs) {
      const id = await createSession();
      const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
      for (const f of frames) {
        if (ws.ws.readyState !== WebSocket.OPEN) break;
        if ('text' in f) ws.ws.send(f.text);
        else ws.ws.send(f.bin);
      }
      ws.close();
      const closed = await ws.closed;
      expect(closed.code, JSON.stringify(frames).slice(0, 300)).not.toBe(1011);
      expect([1000, 1005, 1006, 1009].includes(closed.code) || (closed.code >= 4400 && closed.code < 4500)).toBe(true);
      expectWellFormedErrors(ws.frames);
    }
  }, 60_000);

  it('names the problem for frames over the limit, broken base64, odd PCM and audio far ahead of real time', async () => {
    const id = await createSession();
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.ws.send('{"type":"AUDIO","data":"!!!"}');
    expect((await ws.next((f) => f.type === 'ERROR', 'base64 error')).message).toMatch(/base64/);
    ws.ws.send('{"type":"AUDIO","data":"QUJD"}');
    expect((await ws.next((f) => f.type === 'ERROR' && /even/.test(f.message), 'odd PCM error')).code).toBe(400);
    // No START_TIME was sent: audio is still accepted and acknowledged (the arrival time stands in).
    ws.ws.send(Buffer.alloc(3200));
    expect((await ws.next((f) => f.type === 'ACK', 'ACK')).received_ms).toBe(100);
    // Ten seconds of audio at once, with a 3 s allowance: throttled with 429 / 4429.
    for (let i = 0; i < 10 && ws.ws.readyState === WebSocket.OPEN; i++) ws.ws.send(Buffer.alloc(MAX_FRAME - (MAX_FRAME % 2)));
    const ahead = await ws.next((f) => f.type === 'ERROR' && f.code === 429, '429');
    expect(ahead.message).toMatch(/real time/);
    expect((await ws.closed).code).toBe(4429);

    const big = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    big.ws.send(Buffer.alloc(MAX_FRAME + 2));
    expect((await big.next((f) => f.type === 'ERROR', 'size error')).code).toBe(413);
    expect((await big.closed).code).toBe(4413);
  }, 60_000);

  it('refuses START_TIME 9999-12-31T23:59:58Z, so the session transcript stays readable (issue #12)', async () => {
    const id = await createSession();
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.ws.send(JSON.stringify({ type: 'START_TIME', data: b64('9999-12-31T23:59:58Z') }));
    const refused = await ws.next((f) => f.type === 'ERROR', 'START_TIME error');
    expect(refused.message).toMatch(/START_TIME must not be more than 24 hours ahead/);
    ws.ws.send(Buffer.alloc(3200));
    expect((await ws.next((f) => f.type === 'ACK', 'ACK')).received_ms).toBe(100);
    ws.event('ABORT');
    await ws.closed;
    const transcript = await fetch(`${server.baseUrl}/api/v1/ambient/session/${id}/transcript`, { headers: provider.headers });
    expect(transcript.status).toBe(200);
  }, 30_000);

  it('refuses hostile handshakes without crashing', async () => {
    const id = await createSession();
    const attempts: { protocols?: string[]; headers?: Record<string, string> }[] = [
      { protocols: ['AmbientAuth', id, 'x'.repeat(4000)] },
      { headers: { sdp_service_token: provider.serviceToken, ambient_session_id: '../../etc/passwd' } },
      { protocols: ['AmbientAuth', '%FF', provider.serviceToken] },
      { headers: { sdp_service_token: provider.serviceToken, ambient_session_id: "' OR 1=1 --" } },
      { headers: { sdp_service_token: 'eyJhbGciOiJub25lIn0.e30.', ambient_session_id: id } },
    ];
    for (const a of attempts) {
      const ws = await Promise.resolve()
        .then(() => TestSocket.open(`${server.wsUrl}/ws/ambient`, a))
        .catch((err: Error) => err);
      if (ws instanceof Error) continue; // refused at the HTTP level with a JSON body
      const closed = await ws.closed;
      expect([4401, 4403, 4404]).toContain(closed.code);
      expectWellFormedErrors(ws.frames);
    }
  }, 30_000);

  it('stays up and acknowledges a well-behaved stream afterwards', async () => {
    expect(server.proc.exitCode).toBeNull();
    expect(await (await fetch(`${server.baseUrl}/api/health`)).json()).toEqual({ status: 'ok' });
    const id = await createSession();
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.startTime();
    ws.ws.send(Buffer.alloc(3200 * 5));
    expect((await ws.next((f) => f.type === 'ACK' && f.received_ms >= 500, 'ACK 500')).received_ms).toBe(500);
    ws.event('ABORT');
    await ws.closed;
  }, 30_000);
});
