import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { acquireDirLock, type DirLock } from './dir-lock';
import { installSafeQueryErrors } from './safe-query-errors';

export type Db = ReturnType<typeof drizzlePg<typeof schema>>;

/** The minimal SQL surface pg-boss and raw queries need, on either backend. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface Database {
  db: Db;
  sql: SqlExecutor;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; migrate?: boolean; poolMax?: number }): Promise<Database> {
  installSafeQueryErrors();
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.migrate ?? true, opts.poolMax ?? 10);
  return openPglite(opts.dataDir, opts.migrate ?? true);
}

async function openPostgres(url: string, migrate: boolean, poolMax: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax });
  // A dropped connection (database restart) must not crash the process; the pool reconnects on next use.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema });
  if (migrate) {
    const client = await pool.connect();
    try {
      // Several processes may start at once; one migrates while the others wait.
      await client.query('select pg_advisory_lock(727274)');
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(727274)').catch(() => {});
      client.release();
    }
  }
  return {
    db,
    kind: 'postgres',
    sql: { executeSql: (text, values) => pool.query(text, values as any[]) },
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string, migrate: boolean): Promise<Database> {
  const dir = path.join(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const lock: DirLock = acquireDirLock(dataDir, 'pglite');
  let client: PGlite;
  try {
    client = await PGlite.create(dir);
  } catch (err) {
    lock.release();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  if (migrate) await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    sql: {
      async executeSql(text, values) {
        // Multi-statement scripts (pg-boss migrations) only run through exec, which takes no parameters.
        if (!values || values.length === 0) {
          const results = await client.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
        return client.query(text, values as any[]);
      },
    },
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        lock.release();
      }
    },
  };
}
