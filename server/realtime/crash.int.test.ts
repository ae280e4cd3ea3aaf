import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { synthesizeDialogue } from '../engines/speech/synth';
import { testApi } from '../test/api-client';
import { createSession, getSessionContent, getSessionStatus, getTranscript, listRecordings } from '@/lib/contracts/routes/sessions';

const session = (id: string) => ({ params: { ambient_session_id: id } });

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

describe('/ws/ambient durability', () => {
  it('keeps every acknowledged byte through a SIGKILL, and a reconnect after restart finishes the session', async () => {
    const pcm = synthesizeDialogue(
      [
        { role: 'CLINICIAN', text: 'How long have you had the cough?' },
        { role: 'PATIENT', text: 'About two weeks, and it is worse at night.' },
        { role: 'CLINICIAN', text: 'Any fever or shortness of breath?' },
        { role: 'PATIENT', text: 'A little fever yesterday but no shortness of breath.' },
      ],
      600,
    ).pcm;
    const first = await startServer();
    servers.push(first);
    const provider = await registerAndLogin(first.baseUrl, await createTestPartner(first.baseUrl));
    const created = await testApi(first, provider).call(createSession, { body: {} });
    const { ambient_session_id: id } = created.body as { ambient_session_id: string };

    const ws = await TestSocket.open(`${first.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.startTime();
    const sendUpTo = Math.floor(pcm.length / 2 / 32) * 32;
    await ws.sendPcm(pcm.subarray(0, sendUpTo));
    await ws.next((f) => f.type === 'ACK' && f.received_ms >= 2000, 'ACKs');
    await first.kill();
    const ackedBytes = ws.lastAckMs() * 32;
    expect(ackedBytes).toBeGreaterThan(0);

    const second = await startServer({ dataDir: first.dataDir });
    servers.push(second);
    const ws2 = await TestSocket.open(`${second.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    const ready = await ws2.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
    expect(ready.sequence_number).toBe(2);
    ws2.startTime();
    // The client resumes from its last acknowledgement.
    await ws2.sendPcm(pcm.subarray(ackedBytes));
    await ws2.next((f) => f.type === 'ACK' && f.received_ms === Math.floor((pcm.length - ackedBytes) / 32), 'final ACK');
    ws2.eof();
    await ws2.closed;

    const api = testApi(second, provider);
    const deadline = Date.now() + 180_000;
    let status = '';
    while (Date.now() < deadline) {
      status = ((await api.call(getSessionStatus, session(id))).body as { status: string }).status;
      if (['completed', 'failed', 'skipped'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(status).toBe('completed');
    const rec = (await api.call(listRecordings, session(id))).body as { recordings: any[] };
    expect(rec.recordings.map((r) => r.sequence_number)).toEqual([1, 2]);
    // raw fetch: each presigned URL as the listing hands it out
    const [a, b] = await Promise.all(rec.recordings.map(async (r) => Buffer.from(await (await fetch(r.presigned_url)).arrayBuffer()).subarray(44)));
    // Every acknowledged byte survived, and nothing that was stored is other than what was sent.
    expect(a!.length).toBeGreaterThanOrEqual(ackedBytes);
    expect(a!.equals(pcm.subarray(0, a!.length))).toBe(true);
    expect(b!.equals(pcm.subarray(ackedBytes))).toBe(true);
  }, 400_000);

  it('finishes a finalisation interrupted by a crash after restart, with one transcript and one note', async () => {
    const pcm = synthesizeDialogue(
      [
        { role: 'CLINICIAN', text: 'What brings you in today?' },
        { role: 'PATIENT', text: 'I have a sore throat and a fever since Monday.' },
      ],
      600,
    ).pcm;
    const first = await startServer();
    servers.push(first);
    const provider = await registerAndLogin(first.baseUrl, await createTestPartner(first.baseUrl));
    const created = await testApi(first, provider).call(createSession, { body: {} });
    const { ambient_session_id: id } = created.body as { ambient_session_id: string };
    const ws = await TestSocket.open(`${first.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.startTime();
    await ws.sendPcm(pcm);
    ws.eof();
    await ws.next((f) => f.type === 'STATUS' && f.status === 'running', 'STATUS running');
    // The job is queued or running now; the crash leaves it behind in the queue.
    await first.kill();

    const second = await startServer({ dataDir: first.dataDir });
    servers.push(second);
    const api = testApi(second, provider);
    const deadline = Date.now() + 180_000;
    let status = '';
    while (Date.now() < deadline) {
      status = ((await api.call(getSessionStatus, session(id))).body as { status: string }).status;
      if (['completed', 'failed', 'skipped'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(status).toBe('completed');
    const transcript = (await api.call(getTranscript, session(id))).body as { final_transcript: any[] };
    expect(transcript.final_transcript.length).toBeGreaterThan(0);
    // One set of entries: no segment appears twice on the timeline.
    const starts = transcript.final_transcript.map((e) => `${e.start_offset.seconds}.${e.start_offset.nanos}`);
    expect(new Set(starts).size).toBe(starts.length);
    const content = (await api.call(getSessionContent, session(id))).body as { summary: any[] };
    const ids = new Set(transcript.final_transcript.map((e) => e.transcript_id));
    for (const s of content.summary) for (const t of s.source_transcripts) expect(ids.has(t)).toBe(true);
  }, 400_000);
});
