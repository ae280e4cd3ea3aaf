import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { AppContext } from '../../context';
import { openDatabase, type Database } from '../../db/client';
import { ckgTransactions, partners } from '../../db/schema';
import { createLogger } from '../../logger';
import { getPatientContext } from './get-patient-context';
import { processCkgTransaction } from './process-ckg-transaction';

const partner = { scope: { kind: 'partner', partnerId: 'ckg-unit' } } as const;

/**
 * Processing against a real (PGlite) database. The partner has no webhook URL, so no notification is
 * queued and no job queue is needed.
 */
let dir: string;
let database: Database;
let app: AppContext;

const med = (text: string, status = 'active') => ({ resource: { resourceType: 'MedicationStatement', status, medicationCodeableConcept: { text } } });

async function transaction(patient: string, entries: unknown[], createdAt: Date): Promise<string> {
  const [row] = await app.db
    .insert(ckgTransactions)
    .values({ partnerId: 'ckg-unit', emrPatientId: patient, state: 'PENDING', bundle: { resourceType: 'Bundle', entry: entries }, createdAt })
    .returning({ id: ckgTransactions.id });
  return row!.id;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ckg-unit-'));
  database = await openDatabase({ dataDir: dir });
  app = { config: loadConfig({ ...process.env, DATA_DIR: dir }), log: createLogger('silent'), database, db: database.db, services: new Map() } as unknown as AppContext;
  await app.db.insert(partners).values({ partnerId: 'ckg-unit', name: 'CKG unit', type: 'STANDARD', accessLevel: 'FULL', issuer: 'https://idp', webhookSecretEnc: 'unused' });
}, 120_000);

afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('processCkgTransaction', () => {
  it('replaces the patient context with the latest snapshot and is idempotent', async () => {
    const t1 = await transaction('P-1', [med('Metformin'), med('Aspirin')], new Date(Date.now() - 2000));
    expect(await processCkgTransaction(app, t1)).toBe('COMPLETED');
    const t2 = await transaction('P-1', [med('Metformin', 'stopped')], new Date());
    expect(await processCkgTransaction(app, t2)).toBe('COMPLETED');
    const ctx = await getPatientContext(app, partner, 'P-1');
    expect(ctx!.medications.map((m) => [m.name, m.active])).toEqual([['Metformin', false]]);
    // A re-delivered job finds the transaction finished and changes nothing.
    expect(await processCkgTransaction(app, t2)).toBe('skipped');
    const row = (await app.db.select().from(ckgTransactions).where(eq(ckgTransactions.id, t2)))[0]!;
    expect(row.state).toBe('COMPLETED');
    expect(row.completedAt).not.toBeNull();
  });

  it('aborts an older snapshot that finishes after a newer one, leaving the newer context in place', async () => {
    const older = await transaction('P-2', [med('Warfarin')], new Date(Date.now() - 5000));
    const newer = await transaction('P-2', [med('Apixaban')], new Date());
    expect(await processCkgTransaction(app, newer)).toBe('COMPLETED');
    expect(await processCkgTransaction(app, older)).toBe('ABORTED');
    const row = (await app.db.select().from(ckgTransactions).where(eq(ckgTransactions.id, older)))[0]!;
    expect(row.state).toBe('ABORTED');
    expect(row.error).toEqual({ code: 'SUPERSEDED', message: expect.stringContaining(newer) });
    expect((await getPatientContext(app, partner, 'P-2'))!.medications.map((m) => m.name)).toEqual(['Apixaban']);
  });

  it('fails on unreadable content without touching the existing context', async () => {
    const good = await transaction('P-3', [med('Lisinopril')], new Date(Date.now() - 1000));
    await processCkgTransaction(app, good);
    const bad = await transaction('P-3', [{ resource: { resourceType: 'Condition', id: 'c1', code: 'I10' } }], new Date());
    expect(await processCkgTransaction(app, bad)).toBe('FAILED');
    const row = (await app.db.select().from(ckgTransactions).where(eq(ckgTransactions.id, bad)))[0]!;
    expect(row.error).toEqual({ code: 'INVALID_RESOURCE', message: expect.stringMatching(/^entry\[0\] \(Condition\/c1\): code: /) });
    expect((await getPatientContext(app, partner, 'P-3'))!.medications.map((m) => m.name)).toEqual(['Lisinopril']);
    expect(await getPatientContext(app, partner, 'nobody')).toBeNull();
  });
});
