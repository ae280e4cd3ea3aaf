/**
 * Recovery from losing every database connection, without manual action. PostgreSQL only (PGlite has no
 * connections to lose): scripts/test.sh leaves it out of the PGlite pass by name; run without
 * TEST_DATABASE_URL it fails, it does not skip.
 */
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness';
import { createTestPartner, registerAndLogin } from '../partners';
import { until } from '../until';

const servers: TestServer[] = [];
beforeAll(() => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('this test needs PostgreSQL: set TEST_DATABASE_URL');
});
afterAll(async () => {
  for (const s of servers) await s.stop();
});

describe('database connections lost', () => {
  it('recovers on its own when its PostgreSQL connections are terminated', async () => {
    const server = await startServer();
    servers.push(server);
    const dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const url = fs.readFileSync(`${server.dataDir}/test-database-url`, 'utf8');
    const dbName = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      // Only this test's own database: other tests and engineers share the PostgreSQL server.
      const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await until('ready again', async () => ((await fetch(`${server.baseUrl}/api/ready`)).status === 200 ? true : undefined), 60_000);
    const created = await until('a session create that needs the database', async () => {
      const r = await fetch(`${server.baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers: dr.headers, body: '{}' });
      return r.status === 201 ? ((await r.json()) as { ambient_session_id: string }) : undefined;
    }, 60_000);
    const status = await fetch(`${server.baseUrl}/api/v1/ambient/session/${created.ambient_session_id}/status`, { headers: dr.headers });
    expect(((await status.json()) as { status: string }).status).toBe('created');
    expect(server.proc.exitCode).toBeNull();
  }, 180_000);
});
