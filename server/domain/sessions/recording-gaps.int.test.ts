import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../test/partners';
import { TestSocket } from '../../test/ws-client';
import { testApi } from '../../test/api-client';
import { TranscriptResponse } from '@/lib/contracts/sessions';
import { createSession, getSessionStatus, getTranscript } from '@/lib/contracts/routes/sessions';
import { getNoteReview } from '@/lib/contracts/routes/workflow';
import { hasSynthTools, NATURAL_VOICES, synthesize } from '../../engines/speech/synth';
import { getOpenApiDocument } from '@/lib/contracts/routes/meta';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';

// Silence is enough: the gaps come from the recordings' START_TIMEs and stored audio, not from any words.
const SECOND = Buffer.alloc(1000 * BYTES_PER_MS);

let server: TestServer;
let provider: TestProvider;
const api = () => testApi(server, provider);
const session = (id: string) => ({ params: { ambient_session_id: id } });

beforeAll(async () => {
  server = await startServer();
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
}, 300_000);
afterAll(() => server?.stop());

function open(id: string): Promise<TestSocket> {
  return TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
}

/** One recording part: START_TIME `start`, its audio (a second of silence) stored and ACKed; the part then drops (no EOF) or ends the visit. */
async function part(id: string, start: Date, then: 'drop' | 'eof', pcm: Buffer = SECOND, reason?: string): Promise<void> {
  const ws = await open(id);
  await ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
  if (reason === undefined) ws.startTime(start.toISOString());
  else ws.json({ type: 'START_TIME', data: Buffer.from(start.toISOString()).toString('base64'), reason });
  // Asserted here only when refused: the ERROR comes before the ACK, and an unknown reason must not cost the START_TIME.
  if (reason !== undefined && reason !== 'PAUSED') await ws.next((f) => f.type === 'ERROR' && f.code === 400 && /START_TIME reason must be one of/.test(f.message), 'ERROR naming the reason');
  await ws.sendPcm(pcm, { binary: true });
  await ws.next((f) => f.type === 'ACK' && f.received_ms === Math.floor(pcm.length / BYTES_PER_MS), 'ACK of the audio');
  if (then === 'drop') ws.terminate();
  else ws.eof();
  await ws.closed;
}

async function transcript(id: string): Promise<TranscriptResponse> {
  const res = await api().call(getTranscript, session(id));
  expect(res.status, server.logs().slice(-2000)).toBe(200);
  return TranscriptResponse.parse(res.body);
}

async function terminal(id: string): Promise<string> {
  // A bound for a wedged pipeline, not a speed check (two cores shared with benchmarks).
  const deadline = Date.now() + 240_000;
  for (;;) {
    const s = (await api().call(getSessionStatus, session(id))).body.status as string;
    if (['completed', 'failed', 'skipped'].includes(s) || Date.now() > deadline) return s;
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('transcript recording_gaps', () => {
  it('lists the 12 s between a dropped part and one continued 13 s after it began, at the offset the second part begins', async () => {
    const id = (await api().call(createSession, { body: {} })).body.ambient_session_id as string;
    const t = new Date(Date.now() - 60_000);
    await part(id, t, 'drop');
    await part(id, new Date(t.getTime() + 13_000), 'eof');

    const expected = [
      {
        at_offset: { hours: 0, minutes: 0, seconds: 1, nanos: 0 },
        start_time: new Date(t.getTime() + 1_000).toISOString().replace('Z', '000000Z'),
        end_time: new Date(t.getTime() + 13_000).toISOString().replace('Z', '000000Z'),
        duration_ms: 12_000,
        cause: null,
      },
    ];
    expect((await transcript(id)).recording_gaps).toEqual(expected);
    // Still there once the visit is finished (finalisation settles each part's offset from its stored audio).
    expect(await terminal(id)).toMatch(/^(completed|skipped)$/);
    expect((await transcript(id)).recording_gaps).toEqual(expected);
  }, 600_000);

  it("gives a gap the cause the recorder sent with the next part's START_TIME; an unknown one is reported with an ERROR, the START_TIME kept and the gap left without a cause", async () => {
    const id = (await api().call(createSession, { body: {} })).body.ambient_session_id as string;
    const t = new Date(Date.now() - 60_000);
    await part(id, t, 'drop');
    await part(id, new Date(t.getTime() + 46_000), 'drop', SECOND, 'PAUSED');
    await part(id, new Date(t.getTime() + 50_000), 'eof', SECOND, 'TEA_BREAK');
    const gaps = (await transcript(id)).recording_gaps;
    expect(gaps.map((g) => [g.duration_ms, g.cause])).toEqual([
      [45_000, 'PAUSED'],
      [3_000, null],
    ]);
  }, 600_000);

  it('lists none when the next part starts where the dropped one ended, as a resend after an outage does', async () => {
    const id = (await api().call(createSession, { body: {} })).body.ambient_session_id as string;
    const t = new Date(Date.now() - 60_000);
    await part(id, t, 'drop');
    await part(id, new Date(t.getTime() + 1_000), 'eof');
    const body = await transcript(id);
    expect(body.recording_gaps).toEqual([]);
  }, 600_000);

  /** A spoken visit of two parts with `gapMs` unrecorded between them (the second part's START_TIME reason given), finalised. */
  async function spokenVisitWithGap(gapMs: number, reason?: string) {
    const id = (await api().call(createSession, { body: {} })).body.ambient_session_id as string;
    const speech = (text: string) => synthesize(text, NATURAL_VOICES.CLINICIAN);
    const first = speech('Your blood pressure today is one fifty over ninety five.');
    const t = new Date(Date.now() - 120_000);
    await part(id, t, 'drop', first);
    const firstMs = Math.floor(first.length / BYTES_PER_MS);
    await part(id, new Date(t.getTime() + firstMs + gapMs), 'eof', speech('We will increase the lisinopril to twenty milligrams daily.'), reason);
    expect(await terminal(id)).toBe('completed');
    return { id, firstMs };
  }

  it.skipIf(!hasSynthTools())('is an item of the review before signing, which the note of such a visit lists', async () => {
    const { id, firstMs } = await spokenVisitWithGap(20_000);
    const review = await api().call(getNoteReview, session(id));
    expect(review.status).toBe(200);
    const items = (review.body as { items: { kind: string; text: string; detail: string }[] }).items.filter((i) => i.kind === 'NOT_RECORDED');
    expect(items).toEqual([expect.objectContaining({ text: `Not recorded: 20 s at 0:0${Math.floor(firstMs / 1000)}` })]);
    expect(items[0]!.detail).toMatch(/Anything said then is not in the transcript or this note/);
  }, 600_000);

  it.skipIf(!hasSynthTools())("names a pause the recorder reported as the clinician's own, in the transcript and in the review", async () => {
    const { id, firstMs } = await spokenVisitWithGap(45_000, 'PAUSED');
    const gaps = (await transcript(id)).recording_gaps;
    expect(gaps.map((g) => [g.duration_ms, g.cause])).toEqual([[45_000, 'PAUSED']]);
    const review = await api().call(getNoteReview, session(id));
    expect(review.status).toBe(200);
    const items = (review.body as { items: { kind: string; text: string; detail: string }[] }).items.filter((i) => i.kind === 'NOT_RECORDED');
    const at = `0:0${Math.floor(firstMs / 1000)}`;
    expect(items).toEqual([expect.objectContaining({ text: `Recording paused: 45 s at ${at}` })]);
    expect(items[0]!.detail).toBe(
      `Recording was paused for 45 s where the transcript reaches ${at} (its "Recording paused" line gives the time of day). Anything said then is not in the transcript or this note; add it if it matters.`,
    );
  }, 600_000);

  it('is described in the OpenAPI document', async () => {
    const doc = await (await testApi(server.baseUrl).send(getOpenApiDocument)).json();
    const field = doc.components.schemas.TranscriptResponse.properties.recording_gaps;
    expect(field.description).toMatch(/not recorded/);
    expect(doc.components.schemas.TranscriptResponse.required).toContain('recording_gaps');
    expect(doc.components.schemas.RecordingGap.properties.at_offset).toEqual({ $ref: '#/components/schemas/Duration' });
    const cause = doc.components.schemas.RecordingGap.properties.cause;
    expect(JSON.stringify(cause)).toMatch(/"PAUSED","PAGE_RELOADED","CAPTURE_STALLED","MICROPHONE_DISCONNECTED"/);
    expect(cause.description).toMatch(/^Additive: why nothing was recorded/);
  });
});
