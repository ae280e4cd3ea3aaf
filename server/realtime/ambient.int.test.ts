import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { NATURAL_VOICES, synthesizeDialogue } from '../engines/speech/synth';
import { testApi, unchecked } from '../test/api-client';
import { createSession as createSessionRoute, endSession, getSessionContent, getSessionStatus, getSessionStructuredData, getTranscript, listRecordings, setSessionContext } from '@/lib/contracts/routes/sessions';
import { createTranscriptionSession } from '@/lib/contracts/routes/dictation';

// Real speech made at test time (Festival, in beforeAll): two voices, clinical words the recogniser must find.
const TURNS = [
  { role: 'CLINICIAN' as const, text: 'Good morning. What brings you in today?' },
  { role: 'PATIENT' as const, text: 'I have had a bad headache and a cough for three days.' },
  { role: 'CLINICIAN' as const, text: 'Do you have any fever or chest pain?' },
  { role: 'PATIENT' as const, text: 'No fever and no chest pain.' },
  { role: 'CLINICIAN' as const, text: 'Your blood pressure is normal. I will prescribe amoxicillin five hundred milligrams three times a day for seven days.' },
];
const KEYWORDS = ['headache', 'cough', 'fever', 'chest', 'pain', 'blood', 'pressure', 'amoxicillin', 'days'];

let server: TestServer;
let provider: TestProvider;
let dialogue: Buffer;
let dictated: Buffer;

/** The API as the test's provider. */
const api = () => testApi(server, provider);
const session = (id: string) => ({ params: { ambient_session_id: id } });

async function createSession(): Promise<string> {
  const res = await api().call(createSessionRoute, { body: {} });
  expect(res.status).toBe(201);
  return (res.body as { ambient_session_id: string }).ambient_session_id;
}

async function status(id: string): Promise<string> {
  const res = await api().call(getSessionStatus, session(id));
  return (res.body as { status: string }).status;
}

// A bound for a wedged pipeline, not a speed check: on two cores shared with other suites one finalisation
// took over three minutes.
async function waitForStatus(id: string, wanted: string[], timeoutMs = 480_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await status(id);
    if (wanted.includes(s)) return s;
    if (Date.now() > deadline) throw new Error(`session ${id} is still ${s}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

function open(id: string, token = provider.serviceToken): Promise<TestSocket> {
  return TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, token] });
}

beforeAll(async () => {
  // Festival's voices made from recorded speech, as the other speech suites use: with espeak-ng's formant
  // voices the keyword checks hinged on the language model. Made before any socket opens (Festival is slow).
  dialogue = synthesizeDialogue(TURNS, 700, NATURAL_VOICES).pcm;
  dictated = synthesizeDialogue([{ role: 'PATIENT', text: 'The patient reports a headache and a cough. Her blood pressure is normal today.' }], 400, NATURAL_VOICES).pcm;
  server = await startServer({ env: { FINALISE_RETRY_LIMIT: '0' } });
  const partner = await createTestPartner(server.baseUrl);
  provider = await registerAndLogin(server.baseUrl, partner);
  // A bound for a wedged setup, not a speed check: Festival's synthesis and a server start took over 180 s on two
  // cores beside a browser trial and the rest of the suite (28 Nov).
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

describe('/ws/ambient', () => {
  it('streams a visit to a completed note: live transcript, durable audio, final transcript, sections, structured data', async () => {
    const id = await createSession();
    const ctx = await api().call(setSessionContext, {
      ...session(id),
      body: {
        patient: { sex: 'female', dob: '1980-04-02' },
        visit: { chief_complaint: 'Headache and cough' },
      },
    });
    expect(ctx.status).toBeLessThan(300);
    expect(await status(id)).toBe('created');

    const ws = await open(id);
    expect(ws.protocol).toBe('AmbientAuth');
    const ready = await ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
    expect(ready.sequence_number).toBe(1);
    expect(await status(id)).toBe('ready');
    ws.startTime('2026-01-31T09:30:00.123456789Z');
    await ws.sendPcm(dialogue);
    const totalMs = Math.floor(dialogue.length / 32);
    await ws.next((f) => f.type === 'ACK' && f.received_ms === totalMs, `ACK of all ${totalMs} ms`);
    // Live results arrive while streaming, before EOF. A client that has sent its audio keeps the stream alive
    // as a microphone's would be: on a loaded machine the live pass took longer than the 30 s idle close.
    const keepAlive = setInterval(() => ws.event('KEEP_ALIVE'), 5_000);
    const live = await ws.next((f) => f.type === 'TRANSCRIPT' && f.is_final, 'a final live TRANSCRIPT').finally(() => clearInterval(keepAlive));
    expect(live.transcript_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(live.text.length).toBeGreaterThan(0);
    ws.eof();
    await ws.next((f) => f.type === 'STATUS' && f.status === 'running', 'STATUS running');
    const closed = await ws.closed;
    expect(closed.code).toBe(1000);
    // ACKs only grow.
    const acks = ws.frames.filter((f) => f.type === 'ACK').map((f) => f.received_ms);
    expect([...acks].sort((a, b) => a - b)).toEqual(acks);

    expect(await waitForStatus(id, ['completed', 'failed', 'skipped'])).toBe('completed');

    const transcript = (await api().call(getTranscript, session(id))).body as { final_transcript: any[] };
    // The final pass decodes the whole stored recording, so this text is the same on an idle or a saturated
    // machine (server/pipeline/final-pass.int.test.ts); the live pass cannot change it.
    const text = transcript.final_transcript.map((e) => e.transcript).join(' ').toLowerCase();
    const found = KEYWORDS.filter((k) => text.includes(k));
    expect(found.length, `recognised: ${text}`).toBeGreaterThanOrEqual(4);
    const speakers = new Set(transcript.final_transcript.map((e) => e.speaker));
    expect([...speakers].every((s) => ['CLINICIAN', 'PATIENT', 'UNKNOWN'].includes(s))).toBe(true);
    expect(transcript.final_transcript[0].start_time.startsWith('2026-01-31T09:30:')).toBe(true);

    const content = (await api().call(getSessionContent, session(id))).body as { summary: any[] };
    expect(content.summary.length).toBeGreaterThan(0);
    const ids = new Set(transcript.final_transcript.map((e) => e.transcript_id));
    const withSources = content.summary.filter((s) => s.source_transcripts.length > 0);
    expect(withSources.length).toBeGreaterThan(0);
    for (const s of withSources) for (const t of s.source_transcripts) expect(ids.has(t)).toBe(true);
    expect(content.summary.map((s) => s.content).join(' ').toLowerCase()).toMatch(/headache|cough|amoxicillin|fever/);

    const sd = (await api().call(getSessionStructuredData, session(id))).body as { structured_data: any };
    expect(sd.structured_data.diagnoses).toBeDefined();
    expect(sd.structured_data.orders.medication_orders).toBeDefined();

    // The stored recording is exactly the audio sent.
    const rec = (await api().call(listRecordings, session(id))).body as { recordings: any[] };
    expect(rec.recordings).toHaveLength(1);
    // raw fetch: the presigned URL as the listing hands it out, signature and all, as a player would fetch it
    const wav = Buffer.from(await (await fetch(rec.recordings[0].presigned_url)).arrayBuffer());
    expect(wav.subarray(44).equals(dialogue)).toBe(true);
  }, 600_000);

  it('CANCEL aborts the session and closes; a terminal session refuses new streams with 4409', async () => {
    const id = await createSession();
    const ws = await open(id);
    ws.startTime();
    await ws.sendPcm(dialogue.subarray(0, 32_000 * 2));
    await ws.next((f) => f.type === 'ACK' && f.received_ms === 2000, 'ACK');
    ws.event('CANCEL');
    await ws.next((f) => f.type === 'STATUS' && f.status === 'aborted', 'STATUS aborted');
    expect((await ws.closed).code).toBe(1000);
    expect(await status(id)).toBe('aborted');

    const again = await open(id);
    const err = await again.next((f) => f.type === 'ERROR', 'ERROR');
    expect(err.message).toMatch(/aborted/);
    expect((await again.closed).code).toBe(4409);
  }, 60_000);

  it('ends as skipped when there is too little audio', async () => {
    const id = await createSession();
    const ws = await open(id);
    ws.startTime();
    await ws.sendPcm(dialogue.subarray(0, 32 * 400));
    await ws.next((f) => f.type === 'ACK' && f.received_ms === 400, 'ACK');
    ws.eof();
    await ws.closed;
    expect(await waitForStatus(id, ['completed', 'failed', 'skipped'])).toBe('skipped');
  }, 60_000);

  it('resumes after a dropped connection in a second recording with the audio total preserved', async () => {
    const id = await createSession();
    const half = Math.floor(dialogue.length / 64) * 32;
    const first = await open(id);
    first.startTime();
    await first.sendPcm(dialogue.subarray(0, half), { binary: true });
    await first.next((f) => f.type === 'ACK' && f.received_ms === half / 32, 'ACK of first half');
    first.terminate();

    const second = await open(id);
    const ready = await second.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
    expect(ready.sequence_number).toBe(2);
    second.startTime();
    await second.sendPcm(dialogue.subarray(half));
    const rest = (dialogue.length - half) / 32;
    const ack = await second.next((f) => f.type === 'ACK' && f.received_ms === Math.floor(rest), 'ACK of second half');
    expect(ack.session_ms).toBe(half / 32 + Math.floor(rest));
    second.eof();
    await second.closed;
    expect(await waitForStatus(id, ['completed', 'failed', 'skipped'])).toBe('completed');

    const rec = (await api().call(listRecordings, session(id))).body as { recordings: any[] };
    expect(rec.recordings.map((r) => r.sequence_number)).toEqual([1, 2]);
    // raw fetch: each presigned URL as the listing hands it out
    const parts = await Promise.all(rec.recordings.map(async (r) => Buffer.from(await (await fetch(r.presigned_url)).arrayBuffer()).subarray(44)));
    expect(Buffer.concat(parts).equals(dialogue)).toBe(true);
    const transcript = (await api().call(getTranscript, session(id))).body as { final_transcript: any[] };
    expect(new Set(transcript.final_transcript.map((e) => e.recording_id)).size).toBe(2);
  }, 600_000);

  it('answers malformed frames with ERROR and keeps the stream open', async () => {
    const id = await createSession();
    const ws = await open(id);
    ws.ws.send('not json');
    await ws.next((f) => f.type === 'ERROR' && /JSON/.test(f.message), 'ERROR for bad JSON');
    ws.json({ type: 'AUDIO', data: '***' });
    await ws.next((f) => f.type === 'ERROR' && /base64/.test(f.message), 'ERROR for bad base64');
    ws.json({ type: 'AUDIO', data: Buffer.from([1, 2, 3]).toString('base64') });
    await ws.next((f) => f.type === 'ERROR' && /even byte count/.test(f.message), 'ERROR for odd PCM');
    ws.json({ type: 'NOISE' });
    await ws.next((f) => f.type === 'ERROR' && /START_TIME, AUDIO, EVENT/.test(f.message), 'ERROR for unknown type');
    ws.event('DANCE');
    await ws.next((f) => f.type === 'ERROR' && /KEEP_ALIVE/.test(f.message), 'ERROR for unknown event');
    ws.json({ type: 'START_TIME', data: Buffer.from('yesterday').toString('base64') });
    await ws.next((f) => f.type === 'ERROR' && /RFC 3339/.test(f.message), 'ERROR for bad START_TIME');
    ws.audio(Buffer.alloc(3200));
    await ws.next((f) => f.type === 'ACK' && f.received_ms === 100, 'ACK after errors');
    // While paused, audio is refused (not stored) until RESUME.
    ws.event('PAUSE');
    await ws.next((f) => f.type === 'STATUS' && f.paused === true, 'paused');
    ws.audio(Buffer.alloc(3200));
    await ws.next((f) => f.type === 'ERROR' && f.code === 409 && /RESUME/.test(f.message), 'ERROR while paused');
    ws.event('RESUME');
    ws.audio(Buffer.alloc(3200));
    await ws.next((f) => f.type === 'ACK' && f.received_ms === 200, 'ACK after RESUME');
    expect(ws.frames.filter((f) => f.type === 'ERROR').map((f) => f.code)).toEqual([400, 400, 400, 400, 400, 400, 409]);
    // ABORT ends this stream only; the session stays ready for a later one.
    ws.event('ABORT');
    expect((await ws.closed).code).toBe(1000);
    expect(await status(id)).toBe('ready');
  }, 60_000);

  it('closes an oversized frame with ERROR 413 and 4413', async () => {
    const id = await createSession();
    const ws = await open(id);
    ws.ws.send(Buffer.alloc(300 * 1024));
    const err = await ws.next((f) => f.type === 'ERROR', 'ERROR');
    expect(err.code).toBe(413);
    expect((await ws.closed).code).toBe(4413);
  }, 60_000);

  it('refuses bad credentials, other tenants and unknown sessions with close codes', async () => {
    const id = await createSession();
    const bad = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, 'not-a-token'] });
    expect((await bad.closed).code).toBe(4401);

    const otherPartner = await createTestPartner(server.baseUrl);
    const other = await registerAndLogin(server.baseUrl, otherPartner);
    const foreign = await open(id, other.serviceToken);
    expect((await foreign.closed).code).toBe(4404);

    const unknown = await open('6f1d6a3e-0000-4000-8000-000000000000');
    expect((await unknown.closed).code).toBe(4404);

    const ro = await createTestPartner(server.baseUrl, { access_level: 'READONLY' });
    const roProvider = await registerAndLogin(server.baseUrl, ro);
    const readonly = await open(id, roProvider.serviceToken);
    expect((await readonly.closed).code).toBe(4403);

    // Header authentication for non-browser clients.
    const viaHeaders = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { headers: { sdp_service_token: provider.serviceToken, ambient_session_id: id } });
    await viaHeaders.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
    viaHeaders.close();
    await viaHeaders.closed;

    // Subprotocols without AmbientAuth cannot carry a close code: plain HTTP 401.
    await expect(TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['chat'] })).rejects.toThrow(/401/);
  }, 60_000);

  it('fails the session with AUDIO_UNAVAILABLE when acknowledged audio is lost from storage', async () => {
    const id = await createSession();
    const ws = await open(id);
    ws.startTime();
    await ws.sendPcm(dialogue.subarray(0, 32_000 * 3));
    await ws.next((f) => f.type === 'ACK' && f.received_ms === 3000, 'ACK');
    ws.close();
    await ws.closed;
    // Storage loses the file behind the service's back (a disk replaced, a bucket emptied).
    const dir = path.join(server.dataDir, 'audio', 'sessions', id);
    await expect.poll(() => fs.existsSync(dir) && fs.readdirSync(dir).length).toBe(1);
    for (const f of fs.readdirSync(dir)) fs.truncateSync(path.join(dir, f), 1000);
    const end = await api().call(endSession, session(id));
    expect(end.status).toBeLessThan(300);
    expect(await waitForStatus(id, ['completed', 'failed', 'skipped'])).toBe('failed');
    expect(server.logs()).toMatch(/"code":"AUDIO_UNAVAILABLE"/);
  }, 120_000);
});

describe('/ws/transcribe (dictation)', () => {
  it('creates a session, streams an utterance and returns its text on AUDIO_END', async () => {
    const bad = await api().call(createTranscriptionSession, { body: unchecked({ audio_config: { audio_encoding: 'FLAC', sample_rate_hertz: 16000 } }) });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/audio_encoding/);
    const rate = await api().call(createTranscriptionSession, { body: unchecked({ audio_config: { audio_encoding: 'LINEAR16', sample_rate_hertz: 44100 } }) });
    expect(rate.status).toBe(400);
    expect((rate.body as { message: string }).message).toMatch(/sample_rate_hertz/);

    const res = await api().call(createTranscriptionSession, { body: { audio_config: { audio_encoding: 'LINEAR16', audio_language: 'en-US', sample_rate_hertz: 16000 } } });
    expect(res.status).toBe(201);
    const { transcription_session_id } = res.body as { transcription_session_id: string };
    const ws = await TestSocket.open(`${server.wsUrl}/ws/transcribe`, { protocols: ['AmbientAuth', transcription_session_id, provider.serviceToken] });
    await ws.next((f) => f.type === 'STATUS', 'STATUS');
    ws.startTime();
    const utterance = dictated;
    await ws.sendPcm(utterance);
    ws.event('AUDIO_END');
    const done = await ws.next((f) => f.type === 'TRANSCRIPT' && f.utterance_end, 'utterance text');
    expect(done.is_final).toBe(true);
    expect(done.text.toLowerCase()).toMatch(/patient|reports|blood|pressure|headache/);
    expect(done.end_offset_ms).toBeLessThanOrEqual(Math.ceil(utterance.length / 32));
    ws.eof();
    expect((await ws.closed).code).toBe(1000);

    const other = await TestSocket.open(`${server.wsUrl}/ws/transcribe`, { protocols: ['AmbientAuth', '6f1d6a3e-0000-4000-8000-000000000000', provider.serviceToken] });
    expect((await other.closed).code).toBe(4404);
  }, 120_000);
});
