import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import * as t from './schema';
import { systemDb, tenantDb } from './tenant-db';
import type { PartnerScope, ProviderScope } from './scope/scope';

let database: Database;
let dir: string;
const owner = () => ({ db: database.db });
const a = { partner: 'tdb-a', provider: crypto.randomUUID(), session: crypto.randomUUID() };
const b = { partner: 'tdb-b', provider: crypto.randomUUID(), session: crypto.randomUUID() };
const providerA: ProviderScope = { kind: 'provider', partnerId: a.partner, providerId: a.provider };
const adminA: PartnerScope = { kind: 'partner', partnerId: a.partner };

function session(x: typeof a, id = x.session) {
  return { id, noteId: crypto.randomUUID(), encounterId: crypto.randomUUID(), partnerId: x.partner, providerId: x.provider, status: 'CREATED' };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-db-'));
  database = await openDatabase({ dataDir: dir, databaseUrl: undefined });
  const db = systemDb(owner(), 'test set-up: two tenants');
  const [org] = await db.insert(t.organizations).values({ externalId: 'tdb-org' }).returning();
  for (const x of [a, b]) {
    await db.insert(t.partners).values({ partnerId: x.partner, name: x.partner, type: 'EMR', accessLevel: 'READWRITE', issuer: x.partner, webhookSecretEnc: 'x' });
    await db.insert(t.providers).values({ id: x.provider, identityKey: `pid:${x.partner}`, name: 'P', specialty: 'general', organizationId: org!.id });
    await db.insert(t.ambientSessions).values(session(x));
    await db.insert(t.sessionTransitions).values({ sessionId: x.session, toStatus: 'CREATED' });
  }
});

afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('tenantDb', () => {
  it("finds its own row and not another tenant's, even by id", async () => {
    const tdb = tenantDb(owner(), providerA);
    expect((await tdb.find(t.ambientSessions, eq(t.ambientSessions.id, a.session)))?.partnerId).toBe(a.partner);
    expect(await tdb.find(t.ambientSessions, eq(t.ambientSessions.id, b.session))).toBeUndefined();
    expect((await tdb.list(t.ambientSessions)).map((r) => r.id)).toEqual([a.session]);
    expect(await tdb.count(t.partners)).toBe(1);
  });

  it("scopes a child table through its parent: another tenant's transitions are not seen", async () => {
    const rows = await tenantDb(owner(), providerA).list(t.sessionTransitions);
    expect(rows.map((r) => r.sessionId)).toEqual([a.session]);
    expect((await tenantDb(owner(), { kind: 'all' }).list(t.sessionTransitions)).length).toBe(2);
  });

  it('stamps an insert with the scope and refuses one that names another tenant', async () => {
    const tdb = tenantDb(owner(), providerA);
    const id = crypto.randomUUID();
    const { partnerId: _p, providerId: _v, ...unstamped } = session(a, id);
    const [row] = await tdb.insert(t.ambientSessions, unstamped as typeof t.ambientSessions.$inferInsert);
    expect([row?.partnerId, row?.providerId]).toEqual([a.partner, a.provider]);
    await expect(tdb.insert(t.ambientSessions, session(b, crypto.randomUUID()))).rejects.toThrow(/refused by the tenant scope: partnerId/);
    await expect(tdb.insert(t.ambientSessions, { ...session(a, crypto.randomUUID()), providerId: b.provider })).rejects.toThrow(/providerId names another provider/);
    await expect(tdb.insert(t.sessionTransitions, { sessionId: b.session, toStatus: 'X' })).rejects.toThrow(/sessionId names a row outside the scope/);
    expect(await tdb.insert(t.sessionTransitions, { sessionId: a.session, toStatus: 'RECORDING' })).toHaveLength(1);
  });

  it("updates and deletes only the scope's rows, and refuses moving a row to another tenant", async () => {
    const tdb = tenantDb(owner(), adminA);
    expect(await tdb.update(t.ambientSessions, { status: 'FAILED' }, eq(t.ambientSessions.id, b.session))).toEqual([]);
    expect(await tdb.delete(t.sessionTransitions, eq(t.sessionTransitions.sessionId, b.session))).toEqual([]);
    await expect(tdb.update(t.ambientSessions, { partnerId: b.partner })).rejects.toThrow(/partnerId names another partner/);
    const sys = systemDb(owner(), 'test: read both tenants');
    const [other] = await sys.select().from(t.ambientSessions).where(eq(t.ambientSessions.id, b.session));
    expect(other?.status).toBe('CREATED');
    const updated = await tdb.update(t.ambientSessions, { status: 'READY' }, eq(t.ambientSessions.id, a.session));
    expect(updated.map((r) => [r.id, r.status])).toEqual([[a.session, 'READY']]);
  });

  it('gives a partner admin nothing of a per-provider table', async () => {
    expect(await tenantDb(owner(), adminA).list(t.userPreferences)).toEqual([]);
    await expect(tenantDb(owner(), adminA).insert(t.userPreferences, { providerId: a.provider, preferences: {} })).rejects.toThrow(/per-provider/);
  });

  it('applies the scope to a select builder, which refuses a where that would replace it', async () => {
    const tdb = tenantDb(owner(), adminA);
    const rows = await tdb
      .select(t.ambientSessions, { id: t.ambientSessions.id, transitions: t.sessionTransitions.id })
      .innerJoin(t.sessionTransitions, eq(t.sessionTransitions.sessionId, t.ambientSessions.id));
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set([a.session]));
    expect(() => (tdb.select(t.ambientSessions) as unknown as { where(): unknown }).where()).toThrow(/already has its where/);
  });

  it('keeps the scope inside a transaction, and rolls back with it', async () => {
    const tdb = tenantDb(owner(), providerA);
    await expect(
      tdb.transaction(async (tx) => {
        expect(await tx.find(t.ambientSessions, eq(t.ambientSessions.id, b.session))).toBeUndefined();
        await tx.update(t.ambientSessions, { status: 'ROLLED_BACK' }, eq(t.ambientSessions.id, a.session));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await tdb.find(t.ambientSessions, eq(t.ambientSessions.id, a.session)))?.status).toBe('READY');
  });

  it('upserts only within the scope', async () => {
    const tdb = tenantDb(owner(), providerA);
    const target = t.userPreferences.providerId;
    await tdb.insert(t.userPreferences, { providerId: a.provider, preferences: { a: 1 } }, { onConflict: { target, set: { preferences: { a: 2 } } } });
    const [row] = await tdb.insert(t.userPreferences, { providerId: a.provider, preferences: { a: 3 } }, { onConflict: { target, set: { preferences: { a: 4 } } } });
    expect([row?.providerId, row?.preferences]).toEqual([a.provider, { a: 4 }]);
  });

  it('asks systemDb for its reason', () => {
    expect(() => systemDb(owner(), ' ')).toThrow(/reason/);
  });
});
