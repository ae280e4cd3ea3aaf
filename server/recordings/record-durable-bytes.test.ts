/**
 * Durable-bytes reports on a real PGlite database: reports from many streams within the batch window share
 * one statement, and a report never lowers a count or touches a closed recording.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { recordings } from '../db/schema';
import { recordDurableBytes } from './record-durable-bytes';

let database: Database;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-bytes-'));
  database = await openDatabase({ dataDir: dir });
  // The recordings stand alone here: their session, provider and partner rows are not what is tested.
  await database.db.execute(sql`set session_replication_role = replica`);
}, 180_000);

afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function recording(durable: number, ended = false): Promise<string> {
  const id = randomUUID();
  await database.db.insert(recordings).values({ id, sessionId: randomUUID(), sequenceNumber: 0, blobKey: `k/${id}`, durableBytes: durable, endedAt: ended ? new Date() : null });
  return id;
}

async function durableOf(id: string): Promise<number> {
  return (await database.db.select({ d: recordings.durableBytes }).from(recordings).where(eq(recordings.id, id)))[0]!.d;
}

it('writes the reports of many streams in one statement, each recording its own count', async () => {
  const ids = await Promise.all(Array.from({ length: 50 }, () => recording(0)));
  const execute = vi.spyOn(database.db, 'execute');
  try {
    await Promise.all(ids.map((id, i) => recordDurableBytes(database, id, 3200 * (i + 1))));
    expect(execute).toHaveBeenCalledTimes(1);
  } finally {
    execute.mockRestore();
  }
  expect(await Promise.all(ids.map(durableOf))).toEqual(ids.map((_, i) => 3200 * (i + 1)));
});

it('keeps the larger of two reports for one recording, and never lowers a count', async () => {
  const id = await recording(0);
  await Promise.all([recordDurableBytes(database, id, 9600), recordDurableBytes(database, id, 6400)]);
  expect(await durableOf(id)).toBe(9600);
  await recordDurableBytes(database, id, 3200);
  expect(await durableOf(id)).toBe(9600);
});

it('leaves a closed recording at the count its close wrote', async () => {
  const id = await recording(12_800, true);
  await recordDurableBytes(database, id, 16_000);
  expect(await durableOf(id)).toBe(12_800);
});
