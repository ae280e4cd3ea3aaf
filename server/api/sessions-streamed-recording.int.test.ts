import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { call, createSession } from '../test/session-api';
import { getSessionContent, getSessionStatus, listRecordings } from '@/lib/contracts/routes/sessions';
import { wavHeader } from '../domain/sessions/wav';
import { EOF_FRAME } from '@/lib/contracts/stream-protocol';

describe('recordings captured through /ws/ambient', () => {
  let server: TestServer;
  let dr: TestProvider;

  beforeAll(async () => {
    server = await startServer();
    dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the streamed audio while capturing and after the stream ends', async () => {
    const { default: WebSocket } = await import('ws');
    const { ambient_session_id: id } = await createSession(server, dr);
    const pcm = Buffer.alloc(16_000 * 2 * 2); // 2 s of a 440 Hz tone
    for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)), i * 2);

    const ws = new WebSocket(`${server.wsUrl}/ws/ambient`, { headers: { sdp_service_token: dr.serviceToken, ambient_session_id: id } });
    const frames: any[] = [];
    ws.on('message', (d, isBinary) => {
      if (!isBinary) frames.push(JSON.parse(d.toString()));
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'START_TIME', data: Buffer.from('2026-03-01T08:00:00.000Z').toString('base64') }));
    for (let off = 0; off < pcm.length; off += 3200) ws.send(JSON.stringify({ type: 'AUDIO', data: pcm.subarray(off, off + 3200).toString('base64') }));
    // Polled until it arrives (the test's own timeout bounds it): how soon depends on the machine's load.
    while (!frames.some((f) => f.type === 'ACK' && f.received_ms >= 2000)) await new Promise((r) => setTimeout(r, 50));
    expect(frames.some((f) => f.type === 'ACK' && f.received_ms >= 2000)).toBe(true);

    // Still capturing: streamable, and the URL serves what has been acknowledged so far.
    const live = await call(server, dr, listRecordings, { params: { ambient_session_id: id } });
    expect(live.body.is_streamable).toBe(true);
    expect(live.body.recordings).toHaveLength(1);
    expect(live.body.recordings[0].sequence_number).toBe(1);
    const during = await fetch(live.body.recordings[0].presigned_url, { headers: { range: 'bytes=0-43' } });
    expect(during.status).toBe(206);
    const header = Buffer.from(await during.arrayBuffer());
    expect(header.toString('ascii', 0, 4)).toBe('RIFF');
    expect(header.readUInt32LE(40)).toBe(pcm.length);

    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.send(JSON.stringify(EOF_FRAME));
    await closed;
    let status = '';
    while (!['completed', 'skipped', 'failed'].includes(status)) {
      status = (await call(server, dr, getSessionStatus, { params: { ambient_session_id: id } })).body.status;
      if (!['completed', 'skipped', 'failed'].includes(status)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(['completed', 'skipped']).toContain(status);

    const after = await call(server, dr, listRecordings, { params: { ambient_session_id: id }, query: { download: true } });
    expect(after.body.is_streamable).toBe(false);
    const res = await fetch(after.body.recordings[0].presigned_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    const wav = Buffer.from(await res.arrayBuffer());
    expect(wav.subarray(0, 44)).toEqual(wavHeader(pcm.length));
    expect(wav.subarray(44)).toEqual(pcm);
    const mid = await fetch(after.body.recordings[0].presigned_url, { headers: { range: 'bytes=1000-1999' } });
    expect(mid.status).toBe(206);
    expect(mid.headers.get('content-range')).toBe(`bytes 1000-1999/${wav.length}`);
    expect(Buffer.from(await mid.arrayBuffer())).toEqual(wav.subarray(1000, 2000));
    // Content is available once terminal.
    expect((await call(server, dr, getSessionContent, { params: { ambient_session_id: id } })).status).toBe(200);
  });
});
