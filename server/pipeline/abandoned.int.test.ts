import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { createSession, waitForSessionStatus } from '../test/session-api';
import { testApi, type CallArgs } from '../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { getSessionContent, getSessionStatus, getTranscript, listRecordings } from '@/lib/contracts/routes/sessions';
import { listNeedsReview } from '@/lib/contracts/routes/workflow';
import { NATURAL_VOICES, synthesizeDialogue } from '../engines/speech/synth';
import { startTestReceiver, type TestReceiver } from '../webhooks/testing/receiver';

// Real speech made at test time, in the natural (Festival) voices the other speech suites use: what the abandoned
// visit said before its stream dropped. This suite is about abandonment, so the words only show that the audio stored
// before the drop was finalised; with espeak-ng's formant voices the recogniser's hold was so loose that the word
// checks below hinged on the language model (2 of 7 runs failed with the lean model).
const ABANDONED_TURNS = [
  { role: 'CLINICIAN' as const, text: 'Good morning. What brings you in today?' },
  { role: 'PATIENT' as const, text: 'I have had a bad headache and a cough for three days.' },
  { role: 'CLINICIAN' as const, text: 'Do you have any fever or chest pain?' },
];
// Most of the words are asked for, not all: the test is not a WER measurement (the default engine decodes these
// turns with one word wrong, "cough").
const ABANDONED_WORDS = ['morning', 'what', 'brings', 'headache', 'cough', 'three', 'days', 'have', 'any', 'fever', 'chest', 'pain'];
// The visit that reconnects: one part before the drop (several turns: the recogniser starts each recording cold),
// one after.
const RECONNECTED_TURNS = [
  ABANDONED_TURNS,
  [{ role: 'CLINICIAN' as const, text: 'I will prescribe amoxicillin five hundred milligrams three times a day for seven days.' }],
];

// The window is shortened through configuration; the sweep looks often so the test waits on states only.
const ABANDONED_AFTER = '3s';
const SWEEP = '500ms';
const HOOK = '/ambient-hook';

let server: TestServer;
let provider: TestProvider;
let receiver: TestReceiver;
// Synthesised before any socket opens: Festival takes seconds per turn on a loaded machine and blocks the event loop,
// which an open stream would see as a silent client (KEEP_ALIVE timeout).
let reconnectedPcm: Buffer[];
let abandonedPcm: Buffer;

const ENDED = ['completed', 'skipped', 'failed', 'aborted'];

async function api<C extends RouteContract>(contract: C, ...input: CallArgs<C>): Promise<any> {
  const r = await testApi(server, provider).call(contract, ...input);
  expect(r.status, `${contract.method} ${contract.path}: ${r.text}`).toBeLessThan(300);
  return r.body;
}
const session = (id: string) => ({ params: { ambient_session_id: id } });

async function stream(id: string): Promise<TestSocket> {
  const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
  await ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
  ws.startTime();
  return ws;
}

/** Sends the audio and waits until the server has acknowledged all of it (stored durably). */
async function sendAll(ws: TestSocket, pcm: Buffer): Promise<void> {
  const before = ws.lastAckMs();
  await ws.sendPcm(pcm);
  const totalMs = before + Math.floor(pcm.length / BYTES_PER_MS);
  await ws.next((f) => f.type === 'ACK' && f.received_ms === totalMs, `ACK of ${totalMs} ms`);
}

async function finalWords(id: string): Promise<string> {
  const t = await api(getTranscript, session(id));
  return (t.final_transcript as { transcript: string }[]).map((e) => e.transcript).join(' ').toLowerCase();
}

beforeAll(async () => {
  reconnectedPcm = RECONNECTED_TURNS.map((turns) => synthesizeDialogue(turns, 500, NATURAL_VOICES).pcm);
  abandonedPcm = synthesizeDialogue(ABANDONED_TURNS, 500, NATURAL_VOICES).pcm;
  receiver = await startTestReceiver();
  server = await startServer({ env: { ABANDONED_AFTER, ABANDONED_SWEEP_INTERVAL: SWEEP, WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl, { webhook_url: receiver.url(HOOK) }));
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe('abandoned visits', () => {
  it('a visit whose stream dropped without EOF is finalised from its stored audio after ABANDONED_AFTER; one that reconnected continues', async () => {
    const abandoned = (await createSession(server, provider)).ambient_session_id;
    const continued = (await createSession(server, provider)).ambient_session_id;

    // The continued visit drops and comes straight back (a new stream, the next recording), then keeps streaming.
    const first = await stream(continued);
    await sendAll(first, reconnectedPcm[0]!);
    first.terminate();
    const again = await stream(continued);
    expect(again.frames.find((f) => f.type === 'STATUS')?.sequence_number).toBe(2);
    await sendAll(again, reconnectedPcm[1]!);

    // The abandoned visit: audio stored and acknowledged, then the socket is dropped with no EOF and no close frame.
    const ws = await stream(abandoned);
    await sendAll(ws, abandonedPcm);
    ws.terminate();

    // The reconnected stream stays open meanwhile, fed as a microphone would (a second of silence a second).
    let feeding = true;
    const keepFeeding = (async () => {
      while (feeding && !again.closeInfo) await again.sendPcm(Buffer.alloc(1000 * BYTES_PER_MS), { frameMs: 100, realTime: true });
    })();
    try {
      expect(await waitForSessionStatus(server, provider, abandoned, ENDED)).toBe('completed');

      // The reason is recorded and answered with the content; the transcript holds what was said before the drop.
      const content = await api(getSessionContent, session(abandoned));
      expect(content.ended_reason).toBe('abandoned');
      expect(content.summary.length).toBeGreaterThan(0);
      const words = await finalWords(abandoned);
      expect(ABANDONED_WORDS.filter((w) => words.includes(w)).length, `recognised: ${words}`).toBeGreaterThanOrEqual(8);

      // It is waiting for the clinician in "Needs review".
      const review = await api(listNeedsReview);
      expect(review.sessions.find((s: any) => s.ambient_session_id === abandoned)).toMatchObject({ status: 'completed', needs_review: true, note_status: 'draft' });

      // The partner heard of it as of any completed session.
      const hook = async (id: string) => {
        for (let n = 1; ; n++) {
          const reqs = await receiver.waitFor(HOOK, n, 120_000);
          const hit = reqs.map((r) => JSON.parse(r.rawBody)).find((p) => p.session_id === id);
          if (hit) return hit;
        }
      };
      expect(await hook(abandoned)).toMatchObject({ status: 'SUCCESS', session_id: abandoned });

      // The visit that came back within the window was left alone, though the window passed many times while it streamed.
      expect((await api(getSessionStatus, session(continued))).status).toBe('ready');
    } finally {
      feeding = false;
      await keepFeeding;
    }
    again.eof();
    await again.next((f) => f.type === 'STATUS' && f.status === 'running', 'STATUS running');
    expect(await waitForSessionStatus(server, provider, continued, ENDED)).toBe('completed');
    const other = await api(getSessionContent, session(continued));
    expect(other.ended_reason).toBeUndefined();
    const both = await finalWords(continued);
    // Words from before the drop and from after the reconnect.
    const before = ['morning', 'what', 'brings', 'headache', 'cough', 'have', 'any', 'fever', 'chest', 'pain'];
    expect(before.filter((w) => both.includes(w)).length, `recognised: ${both}`).toBeGreaterThanOrEqual(6);
    expect(['will', 'prescribe', 'amoxicillin', 'milligrams', 'seven'].filter((w) => both.includes(w)).length, `recognised: ${both}`).toBeGreaterThanOrEqual(3);
    const recs = await api(listRecordings, session(continued));
    expect(recs.recordings.map((r: any) => r.sequence_number)).toEqual([1, 2]);
  }, 900_000);
});
