import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { testApi } from '../test/api-client';
import { TranscriptResponse, type Duration } from '@/lib/contracts/sessions';
import { createSession, getSessionStatus, getTranscript } from '@/lib/contracts/routes/sessions';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import { hasVoice, NATURAL_VOICES, synthesizeDialogue } from '../engines/speech/synth';

// A reconnect after a dropped connection resends from the first unacknowledged sample, as a new recording part
// that goes on where the last one stopped, often within a word. In a browser trial "any doses" became "any
// does says" there: each part was decoded on its own. The final transcript of the parts must be the one of
// the audio they hold, as if it had never been split; parts with time between them must stay apart.
const TURNS = [
  { role: 'CLINICIAN' as const, text: 'Good morning, how are you feeling today?' },
  { role: 'CLINICIAN' as const, text: 'Have you missed any doses of your blood pressure medicine this week?' },
  { role: 'CLINICIAN' as const, text: 'Please take them every morning with breakfast.' },
];

// A voice built from recorded speech, which the engine hears word for word here ("have you missed any doses of …").
const ready = hasVoice(NATURAL_VOICES.CLINICIAN);
let server: TestServer;
let provider: TestProvider;
let audio: Buffer;
const api = () => testApi(server, provider);
const session = (id: string) => ({ params: { ambient_session_id: id } });
const ms = (d: Duration) => d.hours * 3_600_000 + d.minutes * 60_000 + d.seconds * 1000 + d.nanos / 1e6;

beforeAll(async () => {
  if (!ready) return;
  audio = synthesizeDialogue(TURNS, 700, NATURAL_VOICES).pcm;
  server = await startServer();
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
}, 300_000);
afterAll(() => server?.stop());

/** One recording part with START_TIME `start`, stored and ACKed; it then drops (no EOF, as the network does) or ends the visit. */
async function part(id: string, start: Date, pcm: Buffer, then: 'drop' | 'eof'): Promise<void> {
  const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
  await ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
  ws.startTime(start.toISOString());
  await ws.sendPcm(pcm, { binary: true });
  await ws.next((f) => f.type === 'ACK' && f.received_ms === Math.floor(pcm.length / BYTES_PER_MS), 'ACK of the audio', 300_000);
  if (then === 'drop') ws.terminate();
  else ws.eof();
  await ws.closed;
}

/** A visit of the given parts, each [pcm, START_TIME as ms after `t`], finalised; its final transcript and gaps. */
async function visit(parts: [Buffer, number][]) {
  const id = (await api().call(createSession, { body: {} })).body.ambient_session_id as string;
  const t = Date.now() - 600_000;
  for (const [i, [pcm, at]] of parts.entries()) await part(id, new Date(t + at), pcm, i === parts.length - 1 ? 'eof' : 'drop');
  // A bound for a wedged pipeline, not a speed check.
  const deadline = Date.now() + 300_000;
  let status = '';
  while (!['completed', 'failed', 'skipped'].includes(status) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 300));
    status = (await api().call(getSessionStatus, session(id))).body.status as string;
  }
  expect(status, server.logs().slice(-3000)).toBe('completed');
  const res = await api().call(getTranscript, session(id));
  expect(res.status).toBe(200);
  const body = TranscriptResponse.parse(res.body);
  const entries = body.final_transcript.map((e) => ({
    recordingId: e.recording_id,
    text: e.transcript,
    startMs: ms(e.start_offset),
    endMs: ms(e.end_offset),
    words: (e.words ?? []).map((w) => ({ text: w.text, startMs: ms(w.start_offset), endMs: ms(w.end_offset) })),
  }));
  return { id, entries, gaps: body.recording_gaps };
}

const content = (entries: Awaited<ReturnType<typeof visit>>['entries']) => entries.map(({ recordingId: _, ...e }) => e);

describe.skipIf(!ready)('recording parts at finalisation', () => {
  let whole: Awaited<ReturnType<typeof visit>>;
  /** Byte offset, on a millisecond, in the middle of "doses", where the reconnect cuts the audio. */
  let split = 0;
  beforeAll(async () => {
    whole = await visit([[audio, 0]]);
    expect(whole.entries.map((e) => e.text).join(' ')).toMatch(/\bany doses\b/);
    const word = whole.entries.flatMap((e) => e.words).find((w) => w.text === 'doses')!;
    split = Math.round((word.startMs + word.endMs) / 2) * BYTES_PER_MS;
  }, 600_000);

  it('decodes a part that continues the one before as one audio: the word across the reconnect is whole', async () => {
    const splitMs = split / BYTES_PER_MS;
    const joined = await visit([
      [audio.subarray(0, split), 0],
      [audio.subarray(split), splitMs],
    ]);
    expect(joined.gaps).toEqual([]);
    expect(joined.entries.map((e) => e.text).join(' ')).toBe(whole.entries.map((e) => e.text).join(' '));
    expect(joined.entries.map((e) => e.text).join(' ')).toMatch(/\bany doses\b/);
    // The same segments, words and offsets on the session timeline as the audio never split.
    expect(content(joined.entries)).toEqual(content(whole.entries));
    // The entry spoken across the join belongs to the part it starts in; later ones to the next part.
    const across = joined.entries.find((e) => e.startMs < splitMs && e.endMs > splitMs);
    expect(across).toBeDefined();
    const firstPart = joined.entries.filter((e) => e.startMs < splitMs).map((e) => e.recordingId);
    const nextPart = joined.entries.filter((e) => e.startMs >= splitMs).map((e) => e.recordingId);
    expect(nextPart.length).toBeGreaterThan(0);
    expect(new Set(firstPart)).toEqual(new Set([across!.recordingId]));
    expect(new Set(nextPart).size).toBe(1);
    expect(nextPart[0]).not.toBe(across!.recordingId);
  }, 900_000);

  it('decodes parts with a recording gap between them apart, as each would be alone', async () => {
    const splitMs = split / BYTES_PER_MS;
    const first = audio.subarray(0, split);
    const next = audio.subarray(split);
    const gapped = await visit([
      [first, 0],
      [next, splitMs + 20_000],
    ]);
    expect(gapped.gaps.map((g) => g.duration_ms)).toEqual([20_000]);
    // No entry runs across the gap: each part's audio gives what it gives alone, at the part's offset.
    expect(gapped.entries.every((e) => e.endMs <= splitMs || e.startMs >= splitMs)).toBe(true);
    const alone = [...(await visit([[first, 0]])).entries, ...(await visit([[next, 0]])).entries.map((e) => ({
      ...e,
      startMs: e.startMs + splitMs,
      endMs: e.endMs + splitMs,
      words: e.words.map((w) => ({ ...w, startMs: w.startMs + splitMs, endMs: w.endMs + splitMs })),
    }))];
    expect(content(gapped.entries)).toEqual(content(alone));
    expect(new Set(gapped.entries.map((e) => e.recordingId)).size).toBe(2);
  }, 900_000);
});
