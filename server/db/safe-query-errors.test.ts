import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { users } from './schema';
import { isUniqueViolation } from './pg-error';

const PHI = 'MRN-PANGOLIN-4417 Zanzibarite migraine';

let database: Database;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-query-errors-'));
  database = await openDatabase({ dataDir });
});

afterAll(async () => {
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Everything a logger could print of an error: message, stack, own fields, and the same for its causes. */
function printable(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as (Error & Record<string, unknown>) | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    parts.push(String(e.message), String(e.stack), JSON.stringify({ ...e }));
  }
  return parts.join('\n');
}

async function failure(run: () => Promise<unknown>): Promise<Error & { code?: string; query?: string; cause?: any }> {
  try {
    await run();
  } catch (err) {
    return err as Error;
  }
  throw new Error('the query did not fail');
}

describe('failed queries', () => {
  it('carry the statement and SQLSTATE but never the parameters, even when the database quotes the value', async () => {
    const err = await failure(() => database.db.execute(sql`select ${PHI}::uuid`));
    expect(err.name).toBe('QueryFailedError');
    expect(err.message).toMatch(/^Failed query \(22P02\): select \$1::uuid/);
    expect(err.code).toBe('22P02');
    expect(err.cause.code).toBe('22P02');
    expect(printable(err)).not.toContain('PANGOLIN');
    expect(printable(err)).not.toContain('Zanzibarite');
    expect(printable(err)).not.toContain('params');
  });

  it('drop the detail of integrity errors (which lists the row) but keep the code and constraint callers branch on', async () => {
    await database.db.insert(users).values({ email: 'pangolin@clinic.example', role: 'clinician', name: PHI });
    const err = await failure(() => database.db.insert(users).values({ email: 'pangolin@clinic.example', role: 'clinician', name: PHI }));
    expect(err.cause.code).toBe('23505');
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(await failure(() => database.db.execute(sql`select 'x'::uuid`)))).toBe(false);
    expect(err.cause.constraint).toBe('users_email_unique');
    expect(err.cause.message).toMatch(/duplicate key value violates unique constraint "users_email_unique"/);
    expect(err.cause.detail).toBeUndefined();
    for (const word of ['PANGOLIN', 'pangolin@', 'Zanzibarite']) expect(printable(err), word).not.toContain(word);
  });

  it('inside a transaction too', async () => {
    const err = await failure(() => database.db.transaction(async (tx) => tx.execute(sql`select ${JSON.stringify({ note: PHI, bad: '\ud800' })}::jsonb`)));
    expect(err.message).toMatch(/^Failed query \(22P02\)/);
    expect(printable(err)).not.toContain('PANGOLIN');
  });
});
