/**
 * Issue #13 item 3 (and #12 item 13): SIGTERM with streams open. Each stream stores its audio, closes its
 * recording and tells its client to reconnect with 1001; the process exits promptly with 0 (a forced exit
 * would be 1); the session stays open and a reconnect after the restart continues it. A client that never
 * answers the close frame does not hold the shutdown.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { recordings } from '../db/schema';
import { hasSynthTools, synthesize } from '../engines/speech/synth';
import { testApi } from '../test/api-client';
import { createSession, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { createTranscriptionSession } from '@/lib/contracts/routes/dictation';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

/** A WebSocket client that completes the handshake and then never reads or answers anything. */
function deafClient(port: number, headers: Record<string, string>): Promise<{ closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => {
      const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      s.write(
        `GET /ws/ambient HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\nconnection: Upgrade\r\n` +
          `sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n${extra}\r\n`,
      );
    });
    let head = '';
    const closed = new Promise<void>((r) => s.on('close', () => r()));
    s.on('error', () => {});
    s.on('data', (d) => {
      head += d.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        // From here on the server's frames, its close frame included, are read and never answered.
        s.removeAllListeners('data');
        s.on('data', () => {});
        if (/^HTTP\/1\.1 101/.test(head)) resolve({ closed });
        else reject(new Error(head.split('\r\n')[0]));
      }
    });
  });
}

/** The shutdown steps the server logged as done, in the order it logged them. */
function shutdownSteps(logs: string): string[] {
  return logs.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { msg?: string; step?: string };
      return entry.msg === 'shutdown step done' && entry.step ? [entry.step] : [];
    } catch {
      return [];
    }
  });
}

describe('shutdown with streams open', () => {
  it('stores acknowledged audio, closes streams with 1001 and exits 0; the session continues after a restart', async () => {
    const server = await startServer({ env: { SPEECH_POOL_SIZE: '1' } });
    servers.push(server);
    const provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const create = async () => ((await testApi(server, provider).call(createSession, { body: {} })).body as { ambient_session_id: string }).ambient_session_id;
    const id = await create();
    const pcm = hasSynthTools() ? synthesize('The patient has had a cough for two weeks and a mild fever since yesterday.') : Buffer.alloc(32 * 3000, 1);
    const sent = pcm.subarray(0, pcm.length - (pcm.length % 32));
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.startTime();
    ws.ws.send(sent);
    await ws.next((f) => f.type === 'ACK' && f.received_ms === sent.length / 32, 'ACK of all audio');

    const dictationSession = await testApi(server, provider).call(createTranscriptionSession, { body: { audio_config: { audio_encoding: 'LINEAR16', sample_rate_hertz: 16000 } } });
    const dictationId = (dictationSession.body as { transcription_session_id: string }).transcription_session_id;
    const dictation = await TestSocket.open(`${server.wsUrl}/ws/transcribe`, { protocols: ['AmbientAuth', dictationId, provider.serviceToken] });
    await dictation.next((f) => f.type === 'STATUS', 'STATUS ready');
    const deaf = await deafClient(server.port, { sdp_service_token: provider.serviceToken, ambient_session_id: await create() });

    expect(await server.stop()).toBe(0);
    expect(server.logs()).toMatch(/"msg":"stopped"/);
    expect(server.logs()).not.toMatch(/forcing exit/);
    // The order written out in server/main.ts: streams close (audio stored) before the workers stop, and
    // the database closes last, after everything that writes to it; no step failed. Steps added between
    // these keep the test valid; a step missing or out of order fails it.
    const order = ['stop accepting', 'close streams', 'stop workers', 'close engines and blob store', 'close status bus', 'stop pg-boss', 'close database'];
    const steps = shutdownSteps(server.logs());
    expect(steps.filter((s) => order.includes(s))).toEqual(order);
    expect(steps.at(-1)).toBe('close database');
    expect(server.logs()).not.toMatch(/shutdown step failed/);
    const closed = await ws.closed;
    expect(closed.code).toBe(1001);
    expect(closed.reason).toMatch(/reconnect/);
    expect((await dictation.closed).code).toBe(1001);
    await deaf.closed;

    // Every acknowledged byte is stored, and the recording was closed with that length.
    const db = await openTestDatabase(server.dataDir);
    const rows = await db.db.select().from(recordings).where(and(eq(recordings.sessionId, id), eq(recordings.sequenceNumber, 1)));
    await db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.durableBytes).toBe(sent.length);
    expect(rows[0]!.endedAt).not.toBeNull();
    const stored = fs.readFileSync(path.join(server.dataDir, 'audio', ...rows[0]!.blobKey.split('/')));
    expect(stored.equals(sent)).toBe(true);

    const again = await startServer({ dataDir: server.dataDir, env: { SPEECH_ENGINE: 'none' } });
    servers.push(again);
    const status = (await testApi(again, provider).call(getSessionStatus, { params: { ambient_session_id: id } })).body as { status: string };
    expect(status.status).toBe('ready');
    const resumed = await TestSocket.open(`${again.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    const ready = await resumed.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
    expect(ready.sequence_number).toBe(2);
    expect(ready.recording_id).not.toBe(rows[0]!.id);
    resumed.event('ABORT');
    await resumed.closed;
  }, 240_000);

  it('does not wait for a live recogniser that is far behind', async () => {
    // Ten minutes of speech sent at once: the recogniser needs far longer than the 30 s a shutdown may take
    // to catch up. Waiting for it (as a dropped connection does) ended in the forced exit, status 1.
    const server = await startServer({ env: { SPEECH_POOL_SIZE: '1', WS_MAX_AHEAD_MS: '700000' } });
    servers.push(server);
    const provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const { ambient_session_id: id } = (await testApi(server, provider).call(createSession, { body: {} })).body as { ambient_session_id: string };
    const clip = hasSynthTools() ? synthesize('The patient has had a cough for two weeks and a mild fever since yesterday.') : Buffer.alloc(32 * 4000, 1);
    const pcm = Buffer.concat(Array.from({ length: Math.ceil((600 * 32_000) / clip.length) }, () => clip));
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.startTime();
    await ws.sendPcm(pcm, { binary: true });
    await ws.next((f) => f.type === 'ACK' && f.received_ms === Math.floor(pcm.length / 32), 'ACK of all audio');

    const code = await server.stop();
    if (code !== 0) console.log('LOGS', server.logs().slice(-4000));
    expect(code).toBe(0);
    expect(server.logs()).not.toMatch(/forcing exit/);
    expect((await ws.closed).code).toBe(1001);
  }, 300_000);
});
