import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { createTestPartner, registerAndLogin } from '../../test/partners';
import { TestSocket } from '../../test/ws-client';
import { NATURAL_VOICES, synthesizeDialogue } from '../../engines/speech/synth';
import { TranscriptResponse } from '@/lib/contracts/sessions';
import { createSession, getSessionStatus, getTranscript } from '@/lib/contracts/routes/sessions';
import { testApi } from '../../test/api-client';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
}, 600_000);
afterAll(() => server?.stop());

describe('transcript confidence (issue 14)', () => {
  it('GET …/transcript entries carry confidence and per-word confidences from the recogniser', async () => {
    const provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const api = testApi(server.baseUrl, provider.headers);
    const { ambient_session_id: id } = (await api.call(createSession, { body: {} })).body;
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.startTime();
    // Festival's HMM voice (built from recorded speech): recognised well enough to check words by name.
    await ws.sendPcm(synthesizeDialogue([{ role: 'PATIENT', text: 'I will start lisinopril ten milligrams once a day.' }], 500, NATURAL_VOICES).pcm);
    ws.eof();
    await ws.closed;

    let status = '';
    for (let i = 0; i < 600 && !['completed', 'failed', 'skipped'].includes(status); i++) {
      status = (await api.call(getSessionStatus, { params: { ambient_session_id: id } })).body.status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 300));
    }
    expect(status, server.logs()).toBe('completed');

    const res = await api.call(getTranscript, { params: { ambient_session_id: id } });
    expect(res.status).toBe(200);
    const body = TranscriptResponse.parse(res.body);
    expect(body.final_transcript.length).toBeGreaterThan(0);
    for (const e of body.final_transcript) {
      expect(e.confidence).toBeGreaterThanOrEqual(0);
      expect(e.confidence).toBeLessThanOrEqual(1);
      expect(e.words!.length).toBe(e.transcript.split(/\s+/).length);
      for (const w of e.words!) {
        expect(w.confidence).toBeGreaterThanOrEqual(0);
        expect(w.confidence).toBeLessThanOrEqual(1);
        expect(w.start_offset.seconds * 1000 + w.start_offset.nanos / 1e6).toBeLessThanOrEqual(w.end_offset.seconds * 1000 + w.end_offset.nanos / 1e6);
      }
      expect(e.words!.map((w) => w.text).join(' ')).toBe(e.transcript);
    }
    expect(body.final_transcript.flatMap((e) => e.words!.map((w) => w.text))).toContain('milligrams');
  }, 600_000);
});
