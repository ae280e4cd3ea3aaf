import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../../test/partners';
import { TestSocket } from '../../../test/ws-client';
import { testApi, type CallArgs } from '../../../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { createSession, endSession, getSessionStatus, getTranscript } from '@/lib/contracts/routes/sessions';
import { synthesizeDialogue } from '../synth';
import { TINY_TOKENS, writeTinyNemoCtcDir } from './fixtures/tiny-nemo-ctc';

// SPEECH_ENGINE=sherpa in the real service, with a NeMo CTC model generated for the test: a visit streamed
// over /ws/ambient gets its final transcript from the neural model, also when the server was killed (-9)
// mid-stream and the session is ended after a restart; a bad model directory stops the service at start.
const TURNS = [
  { role: 'CLINICIAN' as const, text: 'What brings you in today?' },
  { role: 'PATIENT' as const, text: 'I have had a cough and a fever for three days.' },
];
const VOCAB = TINY_TOKENS.filter((t) => t.startsWith('▁')).map((t) => t.slice(1));

const servers: TestServer[] = [];
let base: string;
let env: Record<string, string>;
let provider: TestProvider;
let dialogue: Buffer;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sherpa-int-'));
  env = { SPEECH_ENGINE: 'sherpa', SPEECH_MODEL_DIR: writeTinyNemoCtcDir(path.join(base, 'model')), SPEECH_THREADS: '1', SPEECH_POOL_SIZE: '1', FINALISE_RETRY_LIMIT: '0' };
  dialogue = synthesizeDialogue(TURNS, 900).pcm;
  const server = await startServer({ env });
  servers.push(server);
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
}, 300_000);

afterAll(async () => {
  for (const s of servers) await s.stop();
  fs.rmSync(base, { recursive: true, force: true });
});

async function api<C extends RouteContract>(server: TestServer, contract: C, ...input: CallArgs<C>): Promise<any> {
  const res = await testApi(server, provider).call(contract, ...input);
  expect(res.status, `${contract.method} ${contract.path}`).toBeLessThan(300);
  return res.body;
}
const session = (id: string) => ({ params: { ambient_session_id: id } });

async function finalTranscript(server: TestServer, id: string) {
  for (;;) {
    const { status } = await api(server, getSessionStatus, session(id));
    if (['completed', 'failed', 'skipped'].includes(status)) {
      expect(status).toBe('completed');
      break;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  const { final_transcript } = await api(server, getTranscript, session(id));
  return (final_transcript as any[]).map((e) => ({ text: e.transcript as string, speaker: e.speaker as string, start: e.start_offset, end: e.end_offset }));
}

/** Live transcript texts of the last stream that reached EOF. */
let liveTexts: string[] = [];

/** Streams the dialogue; EOF unless `before` takes over the end of the stream. */
async function stream(server: TestServer, before?: () => Promise<void>): Promise<string> {
  const { ambient_session_id: id } = await api(server, createSession, { body: {} });
  const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
  ws.startTime('2026-02-02T10:00:00Z');
  await ws.sendPcm(dialogue);
  await ws.next((f) => f.type === 'ACK' && f.received_ms === Math.floor(dialogue.length / 32), 'ACK of all audio', 300_000);
  if (before) return before().then(() => id);
  ws.eof();
  await ws.closed;
  liveTexts = ws.frames.filter((f) => f.type === 'TRANSCRIPT' && f.is_final).map((f) => f.text as string);
  return id;
}

describe('SPEECH_ENGINE=sherpa in the service', () => {
  it('transcribes a streamed visit with the neural model, and again after a kill -9 mid-stream', async () => {
    const server = servers[0]!;
    const first = await finalTranscript(server, await stream(server));
    // The directory has no streaming model: the live transcript came from the embedded engine, which
    // hears English words, not the generated model's two.
    expect(liveTexts.length).toBeGreaterThan(0);
    expect(liveTexts.join(' ').split(/\s+/).some((w) => w && !VOCAB.includes(w))).toBe(true);
    // One entry per spoken turn, every word from the generated model's vocabulary (pocketsphinx has no
    // "hello world" here to say), speaker roles assigned.
    expect(first).toHaveLength(TURNS.length);
    for (const e of first) {
      expect(e.text.split(' ').every((w) => VOCAB.includes(w))).toBe(true);
      expect(['CLINICIAN', 'PATIENT']).toContain(e.speaker);
    }

    const crashed = await stream(server, () => server.kill());
    const restarted = await startServer({ dataDir: server.dataDir, env });
    servers.push(restarted);
    await api(restarted, endSession, { ...session(crashed), body: {} });
    expect(await finalTranscript(restarted, crashed)).toEqual(first);
  }, 600_000);

  it('does not start with a bad model directory, and says which file is wrong', async () => {
    const bad = writeTinyNemoCtcDir(path.join(base, 'bad'));
    fs.truncateSync(path.join(bad, 'model.onnx'), 100);
    const err = await startServer({ env: { ...env, SPEECH_MODEL_DIR: bad } }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain('server exited during start');
    expect(err?.message).toContain(`${path.join(bad, 'model.onnx')} is not a valid ONNX model`);
  }, 300_000);
});
