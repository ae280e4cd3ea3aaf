/**
 * Issue #18 item 1: the scale-out layout, as docs/deploy.md describes it and the Procfile starts it: two web
 * processes (WORKERS=0) and two workers on one PostgreSQL database, sharing SERVICE_SIGNING_JWK, SECRET_KEY and
 * the blob store: once a directory all four use, once an S3 bucket (s3rver stands in for S3). A visit streams on
 * A, drops, resumes on B; it completes exactly once, and A and B answer alike. A worker killed (SIGKILL) while it
 * finalises a session leaves it to the other worker, which completes it exactly once.
 *
 * PostgreSQL only (PGlite admits one process): scripts/test.sh leaves it out of the PGlite pass by name and
 * runs it in the PostgreSQL pass; run directly without TEST_DATABASE_URL it fails, it does not skip.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeDialogue } from '../../engines/speech/synth';
import { startServer, testDatabaseUrl, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../partners';
import { call } from '../session-api';
import { testApi } from '../api-client';
import { createSession, getSessionContent, getSessionStatus, getTranscript, listRecordings } from '@/lib/contracts/routes/sessions';
import { listDeliveries } from '@/lib/contracts/routes/webhooks';
import { until } from '../until';
import { TestSocket } from '../ws-client';
import { startTestReceiver, type TestReceiver } from '../../webhooks/testing/receiver';

const session = (id: string) => ({ params: { ambient_session_id: id } });

let a: TestServer;
let b: TestServer;
let workers: TestServer[] = [];
const started: TestServer[] = [];
let receiver: TestReceiver;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('this test needs PostgreSQL: set TEST_DATABASE_URL (PGlite admits one process)');
  receiver = await startTestReceiver();
}, 60_000);

afterAll(async () => {
  await stopDeployment();
  await receiver?.close();
  for (const clean of cleanups) await clean();
});

/** The filesystem store: one AUDIO_DIR every process uses, as a shared mount would be. */
async function sharedDirectory(): Promise<Record<string, string>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ambient-shared-audio-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return { AUDIO_DIR: dir };
}

/** s3rver stands in for S3 (a third-party service this machine cannot reach): a real S3-compatible HTTP server. */
async function localS3(): Promise<Record<string, string>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ambient-s3rver-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'ambient-test', configs: [] }] });
  const { port } = await s3.run();
  cleanups.push(async () => {
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_BUCKET: 'ambient-test', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: 'true' };
}

/** Two web processes and two workers from the Procfile, on one fresh database and the given blob store. */
async function startDeployment(blob: Record<string, string>): Promise<void> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const env = {
    SERVICE_SIGNING_JWK: JSON.stringify(await exportJWK(privateKey)),
    SECRET_KEY: crypto.randomBytes(32).toString('base64'),
    SPEECH_POOL_SIZE: '1',
    // A killed worker's lease lapses after this; the default (60 s) would only make the kill test wait longer.
    FINALISE_LEASE_SECONDS: '10',
    ...blob,
  };
  a = await startServer({ procfile: 'web', env });
  started.push(a);
  // B and the workers start together: each waits on its own start, not on the others'.
  const rest = await Promise.all([
    startServer({ procfile: 'web', env, shareDatabaseWith: a }),
    startServer({ procfile: 'worker', env, shareDatabaseWith: a }),
    startServer({ procfile: 'worker', env, shareDatabaseWith: a }),
  ]);
  started.push(...rest);
  b = rest[0]!;
  workers = rest.slice(1);
}

async function stopDeployment(): Promise<void> {
  await Promise.all(started.splice(0).map((s) => s.stop()));
}

const LIFECYCLE = ['ready', 'running', 'completed'] as const;

/** Each process's answers to back-to-back status polls (one in flight per process) until both are terminal. */
async function pollBoth(servers: TestServer[], who: TestProvider, id: string): Promise<Record<string, string[]>> {
  const deadline = Date.now() + 240_000;
  const seen: Record<string, string[]> = {};
  await Promise.all(
    servers.map(async (server, i) => {
      const statuses: string[] = (seen[`process ${'AB'[i]}`] = []);
      for (;;) {
        const { status } = (await call(server, who, getSessionStatus, session(id))).body as { status: string };
        statuses.push(status);
        if (['completed', 'failed', 'skipped'].includes(status) || Date.now() > deadline) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  return seen;
}

async function finished(server: TestServer, who: TestProvider, id: string): Promise<string> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const { status } = (await call(server, who, getSessionStatus, session(id))).body as { status: string };
    if (['completed', 'failed', 'skipped'].includes(status) || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Completed once: one transcript without a repeated segment, one set of sections, one SUCCESS webhook. */
async function expectCompletedOnce(dr: TestProvider, id: string, partnerId: string, hookPath: string): Promise<void> {
  const transcript = (await call(a, dr, getTranscript, session(id))).body as { final_transcript: Array<{ transcript_id: string; start_offset: { seconds: number; nanos: number } }> };
  expect(transcript.final_transcript.length).toBeGreaterThan(0);
  const starts = transcript.final_transcript.map((e) => `${e.start_offset.seconds}.${e.start_offset.nanos}`);
  expect(new Set(starts).size).toBe(starts.length);
  const content = (await call(a, dr, getSessionContent, session(id))).body as { summary: Array<{ loinc_code: string; source_transcripts: string[] }> };
  expect(content.summary.length).toBeGreaterThan(0);
  const sections = content.summary.map((s) => s.loinc_code);
  expect(new Set(sections).size).toBe(sections.length);
  const entries = new Set(transcript.final_transcript.map((e) => e.transcript_id));
  for (const s of content.summary) for (const t of s.source_transcripts) expect(entries.has(t)).toBe(true);
  const hooks = await receiver.waitFor(hookPath, 1);
  const success = hooks.map((r) => JSON.parse(r.rawBody)).filter((h) => h.status === 'SUCCESS');
  expect(success).toEqual([expect.objectContaining({ session_id: id })]);
  const deliveries = (await testApi(a, 'admin').call(listDeliveries, { query: { partner_id: partnerId } })).body;
  expect(deliveries.deliveries.map((d: { event_type: string }) => d.event_type)).toEqual(['session.success']);
}

/** The deployment's database, as the test reads it directly. */
async function withDatabase<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: testDatabaseUrl(a.dataDir) });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

interface KilledRun {
  killed: TestServer;
  /** The session row as it stood when the holder died (read under the lock the kill happened inside). */
  atKill: { status: string; finalising_by: string };
}

/**
 * Kills (SIGKILL) the worker holding the session's finalisation lease, in the middle of its run. The signal
 * is the lease column itself, read under a row lock: while the test holds the session row, its holder can
 * neither complete the session (a status change writes the row) nor release the lease, so the kill lands
 * between the lease being taken and the session being finished, never before or after.
 */
async function killLeaseHolder(id: string): Promise<KilledRun> {
  return withDatabase(async (db) => {
    const deadline = Date.now() + 240_000;
    for (;;) {
      await db.query('begin');
      try {
        const row = (await db.query('select status, finalising_by from ambient_sessions where id = $1 for update', [id])).rows[0] as { status: string; finalising_by: string | null };
        if (row.finalising_by) {
          // The holder is `host:pid:run`; the Procfile runs node directly, so the pid is the child's own.
          const pid = Number(row.finalising_by.split(':').at(-2));
          const killed = workers.find((w) => w.proc.pid === pid);
          if (!killed) throw new Error(`lease held by ${row.finalising_by}, which is none of the workers`);
          await killed.kill();
          return { killed, atKill: { status: row.status, finalising_by: row.finalising_by } };
        }
        if (['completed', 'failed', 'skipped'].includes(row.status)) throw new Error(`session became ${row.status} before any worker was seen holding its lease`);
        if (Date.now() > deadline) throw new Error('no worker took the session\'s finalisation lease');
      } finally {
        await db.query('rollback');
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  });
}

describe.each([
  ['a shared directory', sharedDirectory],
  ['S3 (s3rver standing in)', localS3],
])('two web processes and two workers on one PostgreSQL, blob store: %s', (_name, blobStore) => {
  beforeAll(async () => startDeployment(await blobStore()), 600_000);
  afterAll(stopDeployment);

  it('resumes a dropped stream on the other web process with no acknowledged audio lost, and completes it once', async () => {
    const hookPath = `/hook/${crypto.randomUUID()}`;
    const partner = await createTestPartner(a.baseUrl, { webhook_url: receiver.url(hookPath) });
    // Logged in on A: every call below to B proves B accepts A's service token.
    const dr = await registerAndLogin(a.baseUrl, partner);
    const { pcm } = synthesizeDialogue(
      [
        { role: 'CLINICIAN', text: 'What brings you in today?' },
        { role: 'PATIENT', text: 'I have had a sore throat and a fever since Monday.' },
      ],
      600,
    );
    const created = await call(b, dr, createSession, { body: {} });
    expect(created.status).toBe(201);
    const id = created.body.ambient_session_id as string;

    const first = await TestSocket.open(`${a.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, dr.serviceToken] });
    first.startTime();
    const half = Math.floor(pcm.length / 2 / 32) * 32;
    await first.sendPcm(pcm.subarray(0, half));
    await first.next((f) => f.type === 'ACK' && f.received_ms >= 1000, 'ACKs on A');
    // The connection drops without a close handshake, as a lost network would.
    first.terminate();
    const acked = first.lastAckMs() * 32;
    expect(acked).toBeGreaterThan(0);

    const second = await TestSocket.open(`${b.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, dr.serviceToken] });
    expect(await second.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready on B')).toMatchObject({ sequence_number: 2 });
    second.startTime();
    await second.sendPcm(pcm.subarray(acked));
    await second.next((f) => f.type === 'ACK' && f.received_ms === Math.floor((pcm.length - acked) / 32), 'final ACK on B');
    second.eof();
    await second.closed;

    // Both processes are polled back to back while a worker finalises: each answers from its own status
    // cache, which NOTIFY keeps current, so neither may ever step back to a status the session has left.
    const seen = await pollBoth([a, b], dr, id);
    for (const [name, statuses] of Object.entries(seen)) {
      expect(statuses.at(-1), name).toBe('completed');
      const ranks = statuses.map((st) => LIFECYCLE.indexOf(st as (typeof LIFECYCLE)[number]));
      expect(ranks.every((r, i) => r >= 0 && (i === 0 || r >= ranks[i - 1]!)), `${name}: ${statuses.join(' ')}`).toBe(true);
    }
    // The status A answers is the one B does, without a wait: every web process hears every worker.
    expect((await call(a, dr, getSessionStatus, session(id))).body.status).toBe('completed');

    // Every acknowledged byte is in the blob store both processes share, and nothing else.
    const rec = (await call(a, dr, listRecordings, session(id))).body as { recordings: Array<{ sequence_number: number; presigned_url: string }> };
    expect(rec.recordings.map((r) => r.sequence_number)).toEqual([1, 2]);
    // raw fetch: each presigned URL as the listing hands it out
    const [one, two] = await Promise.all(rec.recordings.map(async (r) => Buffer.from(await (await fetch(r.presigned_url)).arrayBuffer()).subarray(44)));
    expect(one!.length).toBeGreaterThanOrEqual(acked);
    expect(one!.equals(pcm.subarray(0, one!.length))).toBe(true);
    expect(two!.equals(pcm.subarray(acked))).toBe(true);

    await expectCompletedOnce(dr, id, partner.partnerId, hookPath);

    // Status and content read the same from both processes.
    for (const read of [getSessionStatus, getTranscript, getSessionContent]) {
      const [fromA, fromB] = await Promise.all([call(a, dr, read, session(id)), call(b, dr, read, session(id))]);
      expect([read.path, fromB.status, fromB.body]).toEqual([read.path, 200, fromA.body]);
    }
  }, 400_000);

  it('finishes a session whose finalising worker is killed (SIGKILL) on the other worker: completed once', async () => {
    const hookPath = `/hook/${crypto.randomUUID()}`;
    const partner = await createTestPartner(a.baseUrl, { webhook_url: receiver.url(hookPath) });
    const dr = await registerAndLogin(a.baseUrl, partner);
    const { pcm } = synthesizeDialogue(
      [
        { role: 'CLINICIAN', text: 'How is the cough since last week?' },
        { role: 'PATIENT', text: 'Worse at night, and I get short of breath climbing the stairs.' },
        { role: 'CLINICIAN', text: 'We will listen to your chest and get a chest x-ray today.' },
      ],
      600,
    );
    const id = (await call(a, dr, createSession, { body: {} })).body.ambient_session_id as string;
    const ws = await TestSocket.open(`${a.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, dr.serviceToken] });
    ws.startTime();
    await ws.sendPcm(pcm);
    ws.eof();
    await ws.closed;

    const { killed, atKill } = await killLeaseHolder(id);
    expect(killed.proc.signalCode).toBe('SIGKILL');
    expect(['ready', 'running']).toContain(atKill.status);
    const survivor = workers.find((w) => w !== killed)!;

    expect(await finished(b, dr, id)).toBe('completed');
    await expectCompletedOnce(dr, id, partner.partnerId, hookPath);

    // The survivor found the dead holder's lapsed lease, queued the session again and finished it; the
    // session moved to completed once, and no lease is left on it.
    const { transitions, lease } = await withDatabase(async (db) => ({
      transitions: (await db.query('select to_status from session_transitions where session_id = $1 order by id', [id])).rows.map((r) => r.to_status as string),
      lease: (await db.query('select finalising_by, finalising_until from ambient_sessions where id = $1', [id])).rows[0],
    }));
    expect(transitions.filter((t) => t === 'completed')).toHaveLength(1);
    expect(transitions.at(-1)).toBe('completed');
    expect(lease).toEqual({ finalising_by: null, finalising_until: null });
    const logged = (server: TestServer) =>
      server
        .logs()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; sessionId?: string; outcome?: string });
    const finalised = (server: TestServer) => logged(server).filter((l) => l.msg === 'session finalised' && l.sessionId === id);
    // The worker logs after it commits the status, so the line may reach the pipe after the poll saw it.
    await until('the survivor to log the session finalised', async () => (finalised(survivor).length ? true : undefined), 60_000);
    expect(finalised(survivor).map((l) => l.outcome)).toEqual(['completed']);
    expect(logged(survivor).some((l) => l.msg === 'requeued finalisation of sessions whose worker stopped renewing its lease')).toBe(true);
    expect(finalised(killed)).toEqual([]);
  }, 400_000);
});
