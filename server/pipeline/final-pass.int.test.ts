import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { testApi, type CallArgs } from '../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { createSession, endSession, getSessionStatus, getTranscript } from '@/lib/contracts/routes/sessions';
import { synthesizeDialogue } from '../engines/speech/synth';

// The final transcript must be a function of the stored audio alone: not of how busy the machine was while
// the live recogniser ran, nor of whether the live pass finished at all.
const TURNS = [
  { role: 'CLINICIAN' as const, text: 'What brings you in today?' },
  { role: 'PATIENT' as const, text: 'I have had a cough and a fever for three days.' },
  { role: 'CLINICIAN' as const, text: 'I will prescribe amoxicillin five hundred milligrams three times a day.' },
];

const servers: TestServer[] = [];
const busy: ChildProcess[] = [];
let provider: TestProvider;
let dialogue: Buffer;
let idle: Awaited<ReturnType<typeof finalTranscript>> | null = null;

/** One spinning process per core, so the server's decoder threads compete for every core. */
function saturateCores(): void {
  for (let i = 0; i < os.availableParallelism(); i++) {
    busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  }
}

function stopBusy(): void {
  for (const p of busy.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
}

beforeAll(async () => {
  dialogue = synthesizeDialogue(TURNS, 700).pcm;
  const server = await startServer({ env: { FINALISE_RETRY_LIMIT: '0' } });
  servers.push(server);
  provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
}, 240_000);

afterAll(async () => {
  stopBusy();
  for (const s of servers) await s.stop();
});

async function api<C extends RouteContract>(server: TestServer, contract: C, ...input: CallArgs<C>): Promise<any> {
  const res = await testApi(server, provider).call(contract, ...input);
  expect(res.status, `${contract.method} ${contract.path}`).toBeLessThan(300);
  return res.body;
}
const session = (id: string) => ({ params: { ambient_session_id: id } });

async function waitForEnd(server: TestServer, id: string): Promise<string> {
  for (;;) {
    const { status } = await api(server, getSessionStatus, session(id));
    if (['completed', 'failed', 'skipped'].includes(status)) return status;
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Streams the dialogue as one recording; EOF unless `before` takes over the end of the stream. */
async function stream(server: TestServer, before?: (ws: TestSocket) => Promise<void>): Promise<string> {
  const { ambient_session_id: id } = await api(server, createSession, { body: {} });
  const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
  ws.startTime('2026-02-02T10:00:00Z');
  await ws.sendPcm(dialogue);
  await ws.next((f) => f.type === 'ACK' && f.received_ms === Math.floor(dialogue.length / 32), 'ACK of all audio', 300_000);
  if (before) return before(ws).then(() => id);
  ws.eof();
  await ws.closed;
  return id;
}

async function finalTranscript(server: TestServer, id: string) {
  expect(await waitForEnd(server, id)).toBe('completed');
  const { final_transcript } = await api(server, getTranscript, session(id));
  return (final_transcript as any[]).map((e) => ({ text: e.transcript, speaker: e.speaker, start: e.start_offset, end: e.end_offset, start_time: e.start_time }));
}

describe('final pass', () => {
  it('gives the same final transcript for the same audio on an idle machine, a saturated one, and after the live pass was cut off by a crash', async () => {
    const idleServer = servers[0]!;
    idle = await finalTranscript(idleServer, await stream(idleServer));
    expect(idle.length).toBeGreaterThan(0);
    expect(idle.map((e) => e.text).join(' ')).toMatch(/\w/);

    saturateCores();
    let loaded;
    try {
      loaded = await finalTranscript(idleServer, await stream(idleServer));
      // Still spinning at the end: the whole run was under load.
      expect(busy.every((p) => p.exitCode === null && p.signalCode === null)).toBe(true);
    } finally {
      stopBusy();
    }
    expect(loaded).toEqual(idle);

    // A SIGKILL before EOF leaves the live pass unfinished (its last utterance never closed); ending the
    // session over REST after a restart must still decode the whole recording.
    const crashed = await stream(idleServer, async () => {
      await idleServer.kill();
    });
    const restarted = await startServer({ dataDir: idleServer.dataDir, env: { FINALISE_RETRY_LIMIT: '0' } });
    servers.push(restarted);
    await api(restarted, endSession, { ...session(crashed), body: {} });
    expect(await finalTranscript(restarted, crashed)).toEqual(idle);
  }, 900_000);

  it('takes what a live pass cut off at the end of the stream decoded, decodes the rest, and gives the same transcript', async () => {
    expect(idle).not.toBeNull();
    // No wait for the live recogniser at the end: it is cut off with the utterances it has not finished.
    const server = await startServer({ env: { FINALISE_RETRY_LIMIT: '0', WS_LIVE_END_WAIT_MS: '0' } });
    servers.push(server);
    provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const id = await stream(server, async (ws) => {
      await ws.next((f) => f.type === 'TRANSCRIPT' && f.is_final === true, 'a final live segment', 300_000);
      ws.eof();
      await ws.closed;
    });
    expect(await finalTranscript(server, id)).toEqual(idle);
    const line = server
      .logs()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; sessionId?: string; liveUtterances?: number; liveComplete?: number })
      .find((l) => l.msg === 'final transcript' && l.sessionId === id);
    expect(line?.liveUtterances).toBeGreaterThanOrEqual(1);
  }, 900_000);
});
