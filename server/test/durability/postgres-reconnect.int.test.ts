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
import { testApi } from '../api-client';
import { createSession, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { getReadiness } from '@/lib/contracts/routes/meta';

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
    await until('ready again', async () => ((await testApi(server).call(getReadiness)).status === 200 ? true : undefined), 60_000);
    const api = testApi(server, dr);
    const created = await until('a session create that needs the database', async () => {
      const r = await api.call(createSession, { body: {} });
      return r.status === 201 ? (r.body as { ambient_session_id: string }) : undefined;
    }, 60_000);
    const status = await api.call(getSessionStatus, { params: { ambient_session_id: created.ambient_session_id } });
    expect((status.body as { status: string }).status).toBe('created');
    expect(server.proc.exitCode).toBeNull();
  }, 180_000);
});
