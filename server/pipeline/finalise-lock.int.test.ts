import { and, eq, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDatabaseUrl, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { synthesizeDialogue } from '../engines/speech/synth';
import { testApi } from '../test/api-client';
import { createSession } from '@/lib/contracts/routes/sessions';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { closeAppContext, createAppContext } from '../bootstrap';
import type { AppContext } from '../context';
import { ambientSessions, sessionContent, sessionTransitions, transcriptEntries, webhookDeliveries } from '../db/schema';
import { closeEngines } from '../engines/index';
import { closeStatusBus } from '../status/status-bus';
import { finaliseSession } from './finalise-session';
import { runFinaliseJob } from './finalise-worker';
import type { FinaliseJob } from '../jobs/finalise-queue';

// The sessions are streamed to a real web process that runs no workers; the finalisations are then run in
// this process against the same database (PGlite once the server has stopped, or PostgreSQL), as two workers would.
let server: TestServer | undefined;
let app: AppContext | undefined;
const ids: string[] = [];

async function streamSession(s: TestServer, headers: Record<string, string>, token: string): Promise<string> {
  const created = await testApi(s, headers).call(createSession, { body: {} });
  const { ambient_session_id: id } = created.body as { ambient_session_id: string };
  const ws = await TestSocket.open(`${s.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, token] });
  ws.startTime();
  await ws.sendPcm(synthesizeDialogue([{ role: 'PATIENT', text: 'The patient reports a headache and a cough. Her blood pressure is normal today.' }], 500).pcm);
  ws.eof();
  await ws.closed;
  return id;
}

beforeAll(async () => {
  server = await startServer({ env: { WORKERS: '0' } });
  const partner = await createTestPartner(server.baseUrl, { webhook_url: 'http://127.0.0.1:9/ambient-hook' });
  const provider = await registerAndLogin(server.baseUrl, partner);
  ids.push(await streamSession(server, provider.headers, provider.serviceToken));
  ids.push(await streamSession(server, provider.headers, provider.serviceToken));
  const dataDir = server.dataDir;
  expect(await server.stop()).toBe(0);
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: testDatabaseUrl(dataDir) ?? '', WORKERS: '1' });
  app = await createAppContext({ config, log: createLogger('warn') });
}, 300_000);

afterAll(async () => {
  if (app) {
    await closeEngines(app);
    await closeStatusBus(app);
    await closeAppContext(app);
  }
  await server?.stop();
});

async function leaseOf(id: string) {
  return (await app!.db.select({ by: ambientSessions.finalisingBy, until: ambientSessions.finalisingUntil, status: ambientSessions.status }).from(ambientSessions).where(eq(ambientSessions.id, id)))[0]!;
}

function fakeJob(sessionId: string): PgBoss.JobWithMetadata<FinaliseJob> {
  return { id: crypto.randomUUID(), name: 'session.finalise', data: { sessionId }, retryCount: 0, retryLimit: 3 } as unknown as PgBoss.JobWithMetadata<FinaliseJob>;
}

describe('finalisation lease', () => {
  it('two finalisations of one session started at once: one runs, the other answers busy; one transcript, one set of sections, one SUCCESS webhook', async () => {
    const id = ids[0]!;
    expect((await leaseOf(id)).status).not.toBe('completed');
    const outcomes = await Promise.all([finaliseSession(app!, id), finaliseSession(app!, id)]);
    expect(outcomes.sort()).toEqual(['busy', 'completed']);

    const lease = await leaseOf(id);
    expect(lease).toEqual({ by: null, until: null, status: 'completed' });
    const finals = await app!.db.select().from(transcriptEntries).where(and(eq(transcriptEntries.sessionId, id), eq(transcriptEntries.source, 'final')));
    expect(finals.length).toBeGreaterThan(0);
    expect(new Set(finals.map((f) => f.position)).size).toBe(finals.length);
    expect(finals.map((f) => f.position).sort((a, b) => a - b)).toEqual(finals.map((_, i) => i));
    expect(finals.every((f) => f.text.trim().length > 0)).toBe(true);
    const content = await app!.db.select().from(sessionContent).where(eq(sessionContent.sessionId, id));
    expect(content).toHaveLength(1);
    const completions = await app!.db.select().from(sessionTransitions).where(and(eq(sessionTransitions.sessionId, id), eq(sessionTransitions.toStatus, 'completed')));
    expect(completions).toHaveLength(1);

    // Both jobs (the one whose run finished and the one that found it busy) notify; the partner gets one SUCCESS.
    await Promise.all([runFinaliseJob(app!, fakeJob(id)), runFinaliseJob(app!, fakeJob(id))]);
    const hooks = await app!.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.sessionId, id));
    expect(hooks.map((h) => h.eventKey)).toEqual([`session:${id}:completed`]);
  }, 300_000);

  it('a lease held by a live run makes another answer busy; once its holder stops renewing, it lapses and another run finishes the session', async () => {
    const id = ids[1]!;
    await app!.db.update(ambientSessions).set({ finalisingBy: 'other-worker', finalisingUntil: sql`now() + interval '1 hour'` }).where(eq(ambientSessions.id, id));
    expect(await finaliseSession(app!, id)).toBe('busy');
    const held = await leaseOf(id);
    expect(held.by).toBe('other-worker');
    expect(held.status).not.toBe('completed');
    expect(await app!.db.select().from(transcriptEntries).where(and(eq(transcriptEntries.sessionId, id), eq(transcriptEntries.source, 'final')))).toHaveLength(0);

    // The holder was killed: its lease lapsed a second ago.
    await app!.db.update(ambientSessions).set({ finalisingUntil: sql`now() - interval '1 second'` }).where(eq(ambientSessions.id, id));
    expect(await finaliseSession(app!, id)).toBe('completed');
    expect(await leaseOf(id)).toEqual({ by: null, until: null, status: 'completed' });
  }, 300_000);
});
