import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_REASON } from '@/lib/contracts/session-status';
import { loadConfig } from '../../config';
import { createLogger } from '../../logger';
import { closeAppContext, createAppContext } from '../../bootstrap';
import type { AppContext } from '../../context';
import { ambientSessions, organizations, partners, providers, recordings, sessionTransitions } from '../../db/schema';
import { freshPostgresDatabase } from '../../test/harness';
import { FINALISE_QUEUE } from '../../jobs/finalise-queue';
import { abandonSession } from './abandon-session';
import { findAbandonedSessions } from './find-abandoned-sessions';
import { ABANDON_QUEUE, sweepAbandonedSessions } from './sweep-abandoned-sessions';
import { abandonWorker } from './abandon-worker';
import { finaliseWorker } from '../../pipeline/finalise-worker';

/**
 * Which sessions count as abandoned, and that several sweepers end one only once. On PostgreSQL
 * (TEST_DATABASE_URL) the two sweepers are two app contexts with their own connection pools, as two worker
 * processes are; PGlite admits one process, so there both run in the one context, interleaved.
 */
const apps: AppContext[] = [];
let dir: string;
const PARTNER = 'abandon-unit';
let providerId: string;

const HOUR_AGO = sql`now() - interval '1 hour'`;

async function openApp(databaseUrl: string | undefined): Promise<AppContext> {
  const config = loadConfig({ ...process.env, DATA_DIR: dir, DATABASE_URL: databaseUrl ?? '', ABANDONED_AFTER: '60s', WORKERS: '1' });
  const app = await createAppContext({ config, log: createLogger('silent') });
  apps.push(app);
  return app;
}

/** A session in `status` with one recording per entry: its stored bytes and when it last showed life. */
async function session(app: AppContext, status: string, recs: { bytes: number; open?: boolean; at: 'hour ago' | '20 s ago' | 'now' }[]): Promise<string> {
  const id = crypto.randomUUID();
  await app.db.insert(ambientSessions).values({ id, noteId: crypto.randomUUID(), encounterId: crypto.randomUUID(), partnerId: PARTNER, providerId, status });
  let seq = 0;
  for (const r of recs) {
    const at = r.at === 'hour ago' ? HOUR_AGO : r.at === '20 s ago' ? sql`now() - interval '20 seconds'` : sql`now()`;
    await app.db.insert(recordings).values({
      sessionId: id,
      sequenceNumber: ++seq,
      blobKey: `sessions/${id}/${seq}.pcm`,
      durableBytes: r.bytes,
      // A recording with audio was opened long before its last report; one without was opened at `at`.
      createdAt: r.bytes > 0 ? HOUR_AGO : at,
      durableAt: r.bytes > 0 ? at : null,
      endedAt: r.open ? null : at,
    });
  }
  return id;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'abandon-unit-'));
  const url = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
  const app = await openApp(url);
  for (const w of [abandonWorker, finaliseWorker]) await w.createQueue(app.boss, app.config);
  if (url) await openApp(url);
  await app.db.insert(partners).values({ partnerId: PARTNER, name: 'Abandon unit', type: 'STANDARD', accessLevel: 'FULL', issuer: 'https://idp', webhookSecretEnc: 'unused' });
  const [org] = await app.db.insert(organizations).values({ externalId: 'abandon-unit-org' }).returning({ id: organizations.id });
  const [p] = await app.db
    .insert(providers)
    .values({ identityKey: `pid:${PARTNER}:dr`, name: 'Dr Unit', specialty: 'FAMILY_MEDICINE', organizationId: org!.id })
    .returning({ id: providers.id });
  providerId = p!.id;
}, 240_000);

afterAll(async () => {
  for (const app of apps.reverse()) await closeAppContext(app);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('findAbandonedSessions', () => {
  it('finds a ready session with stored audio and no sign of life for the window, and nothing else', async () => {
    const app = apps[0]!;
    const abandoned = await session(app, 'ready', [{ bytes: 32_000, at: 'hour ago' }, { bytes: 64_000, at: 'hour ago' }]);
    const reconnected = await session(app, 'ready', [{ bytes: 32_000, at: 'hour ago' }, { bytes: 0, open: true, at: 'now' }]);
    const justDropped = await session(app, 'ready', [{ bytes: 32_000, at: 'now' }]);
    const silent = await session(app, 'ready', [{ bytes: 0, at: 'hour ago' }]);
    const ended = await session(app, 'running', [{ bytes: 32_000, at: 'hour ago' }]);
    // An open recording 20 s quiet may be a stream another process still holds: within its idle timeout.
    const streaming = await session(app, 'ready', [{ bytes: 32_000, open: true, at: '20 s ago' }]);
    // An open recording silent for an hour belongs to a process that died without closing it.
    const orphaned = await session(app, 'ready', [{ bytes: 32_000, open: true, at: 'hour ago' }]);

    const found = new Set(await findAbandonedSessions(app, { afterMs: 5_000 }));
    expect([abandoned, reconnected, justDropped, silent, ended, streaming, orphaned].filter((id) => found.has(id))).toEqual([abandoned, orphaned]);
    expect(await findAbandonedSessions(app, { afterMs: 5_000, sessionId: justDropped })).toEqual([]);
    expect(await findAbandonedSessions(app, { afterMs: 5_000, sessionId: orphaned })).toEqual([orphaned]);
  });
});

describe('several sweepers', () => {
  it('end an abandoned session once: one transition with its reason, one finalisation job', async () => {
    const [a, b = a] = [apps[0]!, apps[1]];
    const id = await session(a, 'ready', [{ bytes: 48_000, at: 'hour ago' }]);

    // Both sweep: the singleton key keeps one abandon job for the session.
    await Promise.all([sweepAbandonedSessions(a), sweepAbandonedSessions(b!)]);
    const [jobs] = (await a.db.execute(sql`select count(*)::int as n from pgboss.job where name = ${ABANDON_QUEUE} and singleton_key = ${id}`)).rows as { n: number }[];
    expect(jobs!.n).toBe(1);

    // And both run the abandonment at once, as two workers would with a job each.
    const outcomes = await Promise.all([abandonSession(a, id), abandonSession(b!, id), abandonSession(a, id)]);
    expect(outcomes.filter((o) => o === 'abandoned')).toHaveLength(1);
    expect(outcomes.every((o) => ['abandoned', 'active', 'busy'].includes(o))).toBe(true);

    const moves = await a.db.select().from(sessionTransitions).where(eq(sessionTransitions.sessionId, id));
    expect(moves.map((m) => [m.fromStatus, m.toStatus, m.reason])).toEqual([['ready', 'running', ABANDONED_REASON]]);
    const [row] = await a.db.select({ status: ambientSessions.status, by: ambientSessions.finalisingBy }).from(ambientSessions).where(eq(ambientSessions.id, id));
    expect(row).toEqual({ status: 'running', by: null });
    const [finalise] = (await a.db.execute(sql`select count(*)::int as n from pgboss.job where name = ${FINALISE_QUEUE} and singleton_key = ${id}`)).rows as { n: number }[];
    expect(finalise!.n).toBe(1);

    // A later sweep finds nothing more to do: the session is no longer ready.
    expect(await abandonSession(b!, id)).toBe('active');
    expect(await a.db.select().from(sessionTransitions).where(and(eq(sessionTransitions.sessionId, id), eq(sessionTransitions.reason, ABANDONED_REASON)))).toHaveLength(1);
  });
});
