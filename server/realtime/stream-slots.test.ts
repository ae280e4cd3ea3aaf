/**
 * The stream caps' shared store on a real PGlite database: two stores on one database stand for two web
 * processes, so a cap counts the streams of both.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/errors';
import { openDatabase, type Database } from '../db/client';
import { streamSlots } from '../db/schema';
import { createLogger } from '../logger';
import { createDbStreamSlots } from './stream-slots-db';
import type { StreamLimits, StreamSlots } from './stream-slots';

const a1 = { providerId: 'prov-a1', partnerId: 'part-a' };
const a2 = { providerId: 'prov-a2', partnerId: 'part-a' };
const b1 = { providerId: 'prov-b1', partnerId: 'part-b' };

let database: Database;
let dir: string;
const open: StreamSlots[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stream-slots-'));
  database = await openDatabase({ dataDir: dir });
}, 180_000);

afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A process's store; each test uses its own holders' ids, so earlier tests' slots do not count. */
function store(limits: StreamLimits): StreamSlots {
  const s = createDbStreamSlots({ db: database.db, log: createLogger('silent'), limits });
  open.push(s);
  return s;
}

const tagged = (h: typeof a1, tag: string) => ({ providerId: `${h.providerId}-${tag}`, partnerId: `${h.partnerId}-${tag}` });

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  const err = await p.then(() => null, (e: unknown) => e);
  if (!isApiError(err)) throw new Error(`expected a refusal, got ${String(err)}`);
  return { status: err.status, message: err.message };
}

describe('stream slots in the database', () => {
  it('refuses a provider over its cap with 429 naming STREAMS_PER_PROVIDER, counting both processes, and not another provider', async () => {
    const [p1, p2] = [tagged(a1, 'prov'), tagged(a2, 'prov')];
    const limits = { perProvider: 2, perPartner: 10 };
    const [procA, procB] = [store(limits), store(limits)];
    await procA.acquire(p1);
    await procB.acquire(p1);
    const r = await refusal(procA.acquire(p1));
    expect(r.status).toBe(429);
    expect(r.message).toMatch(/2 open streams.*STREAMS_PER_PROVIDER/);
    await procB.acquire(p2);
    expect(await procA.count({ providerId: p1.providerId })).toBe(2);
    expect(await procB.count({ partnerId: p1.partnerId })).toBe(3);
  });

  it('refuses a partner over its cap with 429 naming STREAMS_PER_PARTNER, and not another partner', async () => {
    const [p1, p2, q1] = [tagged(a1, 'part'), tagged(a2, 'part'), tagged(b1, 'part')];
    const slots = store({ perProvider: 5, perPartner: 3 });
    await slots.acquire(p1);
    await slots.acquire(p1);
    await slots.acquire(p2);
    const r = await refusal(slots.acquire(p2));
    expect(r.message).toMatch(/partner already has 3 open streams.*STREAMS_PER_PARTNER/);
    await slots.acquire(q1);
  });

  it('lets exactly the cap in when both processes race for the last places', async () => {
    const p1 = tagged(a1, 'race');
    const limits = { perProvider: 3, perPartner: 0 };
    const [procA, procB] = [store(limits), store(limits)];
    const tries = Array.from({ length: 8 }, (_, i) => (i % 2 ? procA : procB).acquire(p1).then(() => 'in', () => 'refused'));
    const outcomes = await Promise.all(tries);
    expect(outcomes.filter((o) => o === 'in')).toHaveLength(3);
    expect(await procA.count({ providerId: p1.providerId })).toBe(3);
  });

  it('gives a slot back once however often release is called', async () => {
    const [p1, p2] = [tagged(a1, 'rel'), tagged(a2, 'rel')];
    const slots = store({ perProvider: 1, perPartner: 1 });
    const s = await slots.acquire(p1);
    await s.release();
    await s.release();
    expect(await slots.count({ providerId: p1.providerId })).toBe(0);
    const again = await slots.acquire(p1);
    // A double release of the first slot must not free the second one.
    await s.release();
    await expect(slots.acquire(p1)).rejects.toMatchObject({ status: 429 });
    await again.release();
    await slots.acquire(p2);
  });

  it("does not count a killed process's slots once their lease has lapsed, and close gives back a process's slots", async () => {
    const p1 = tagged(a1, 'lapse');
    const slots = store({ perProvider: 1, perPartner: 0 });
    // What a process killed a lease ago leaves behind: its row, no longer renewed.
    await database.db.insert(streamSlots).values({ slotId: 'dead', capKey: `provider:${p1.providerId}`, holder: 'gone', expiresAt: new Date(Date.now() - 1000) });
    await slots.acquire(p1);
    const other = store({ perProvider: 1, perPartner: 0 });
    await expect(other.acquire(p1)).rejects.toMatchObject({ status: 429 });
    await slots.close();
    await other.acquire(p1);
  });

  it('0 means no cap', async () => {
    const p1 = tagged(a1, 'nocap');
    const slots = store({ perProvider: 0, perPartner: 0 });
    for (let i = 0; i < 20; i++) await slots.acquire(p1);
    expect(await slots.count({ partnerId: p1.partnerId })).toBe(20);
  });
});
