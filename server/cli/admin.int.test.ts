import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, startServer, type TestServer } from '../test/harness';
import { testApi } from '../test/api-client';
import { listApiKeys } from '@/lib/contracts/routes/admin-api-keys';
import { listAudit } from '@/lib/contracts/routes/admin-audit';
import { listPartners } from '@/lib/contracts/routes/admin-partners';
import { listPartnerProviders } from '@/lib/contracts/routes/admin-providers';
import { login as loginRoute, register as registerRoute } from '@/lib/contracts/routes/auth';

const run = promisify(execFile);
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

/**
 * On the PostgreSQL pass the server runs on DATABASE_URL (the harness leaves it in DATA_DIR/test-database-url);
 * the CLI must use the same database, and for a directory no server has used yet, a fresh one.
 */
async function databaseEnv(dataDir: string): Promise<Record<string, string>> {
  if (!process.env.TEST_DATABASE_URL) return {};
  const marker = path.join(dataDir, 'test-database-url');
  if (!fs.existsSync(marker)) {
    const { default: pg } = await import('pg');
    const name = `ambient_cli_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`create database ${name}`);
    } finally {
      await client.end();
    }
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    fs.writeFileSync(marker, url.toString());
  }
  return { DATABASE_URL: fs.readFileSync(marker, 'utf8') };
}

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/cli/admin.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ADMIN_API_KEY: '', DATABASE_URL: '', ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Runs a curl line exactly as the CLI printed it, adding only the status code to the output. */
async function runCurl(line: string): Promise<{ status: number; body: string }> {
  expect(line.startsWith('curl ')).toBe(true);
  const { stdout } = await run('bash', ['-c', `${line} -w '\\n%{http_code}'`]);
  const lines = stdout.split('\n');
  return { status: Number(lines.pop()), body: lines.join('\n') };
}

function demoOutput(stdout: string) {
  const lines = stdout.split('\n');
  const signIn = /^Console sign-in: (\S+) \/ (\S+)$/m.exec(stdout);
  return {
    email: signIn?.[1],
    password: signIn?.[2],
    register: lines.find((l) => l.startsWith('curl ') && l.includes(registerRoute.path))!,
    login: lines.find((l) => l.startsWith('curl ') && l.includes(loginRoute.path))!,
  };
}

async function consoleLogin(baseUrl: string, email: string, password: string): Promise<boolean> {
  // raw fetch: next-auth's own routes (the console sign-in), which no contract declares
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfRes.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${baseUrl}/` }),
  });
  return res.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='));
}

describe('admin CLI against a running server (it holds the PGlite directory)', () => {
  it('demo prints a token and curl lines that really register and log in; users and keys go through the admin API', async () => {
    const server = await startServer();
    servers.push(server);
    const env = { DATA_DIR: server.dataDir, HOST: '127.0.0.1', PORT: String(server.port), PUBLIC_BASE_URL: server.baseUrl, ...(await databaseEnv(server.dataDir)) };

    const demo = await cli(['demo'], env);
    expect(demo.code, demo.stderr).toBe(0);
    const out = demoOutput(demo.stdout);
    expect(out.email).toBe('demo@example.com');
    const reg = await runCurl(out.register);
    expect(reg).toEqual({ status: 201, body: '' });
    const login = await runCurl(out.login);
    expect(login.status).toBe(200);
    expect(JSON.parse(login.body).service_token).toMatch(/^ey/);
    expect(await consoleLogin(server.baseUrl, out.email!, out.password!)).toBe(true);

    // Idempotent: a second run keeps the partner and key, resets the password, and the provider stays registered.
    const again = await cli(['demo'], env);
    expect(again.code).toBe(0);
    const out2 = demoOutput(again.stdout);
    expect((await runCurl(out2.register)).status).toBe(409);
    expect((await runCurl(out2.login)).status).toBe(200);
    expect(await consoleLogin(server.baseUrl, out.email!, out.password!)).toBe(false);
    expect(await consoleLogin(server.baseUrl, out2.email!, out2.password!)).toBe(true);

    const user = await cli(['create-user', '--email', 'ops@example.com', '--password', 'a-long-password', '--role', 'admin'], env);
    expect(user.code, user.stderr).toBe(0);
    expect(user.stdout).toMatch(/created service_admin ops@example.com/);
    expect(await consoleLogin(server.baseUrl, 'ops@example.com', 'a-long-password')).toBe(true);

    const clin = await cli(['create-user', '--email', 'nurse@example.com', '--password', 'a-long-password', '--role', 'clinician', '--partner-id', 'demo', '--provider-email', 'dr.demo@example.com', '--json'], env);
    expect(clin.code, clin.stderr).toBe(0);
    const clinUser = JSON.parse(clin.stdout);
    const providers = (await testApi(server, 'admin').call(listPartnerProviders, { params: { partner_id: 'demo' }, query: { q: 'dr.demo@example.com' } })).body;
    expect(clinUser.provider_id).toBe(providers.providers[0].provider_id);

    const key = await cli(['create-api-key', '--name', 'ci'], env);
    expect(key.code, key.stderr).toBe(0);
    const secret = /^key \(shown once, store it now\): (\S+)$/m.exec(key.stdout)![1]!;
    const withKey = await testApi(server, { authorization: `Bearer ${secret}` }).call(listPartners);
    expect(withKey.status).toBe(200);

    const partners = await cli(['list-partners'], env);
    expect(partners.stdout).toMatch(/^demo\s+Demo partner\s+STANDARD\s+FULL\s+urn:ambient:dev-issuer/m);

    // Went through the API with the server's CLI token, so the audit log names the cli actor.
    const audit = (await testApi(server, 'admin').call(listAudit, { query: { action: 'demo.setup' } })).body;
    expect(audit.entries.map((e: { actor: string }) => e.actor)).toEqual(['cli', 'cli']);

    const bad = await cli(['create-user', '--email', 'not-an-email', '--password', 'a-long-password', '--role', 'admin'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/option --email: must be an email address/);
    const dup = await cli(['create-user', '--email', 'ops@example.com', '--password', 'a-long-password', '--role', 'admin'], env);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/409: email: a user with email ops@example.com already exists/);
  }, 300_000);
});

describe('admin CLI with no server running (opens the database itself)', () => {
  it('sets up the demo and a key directly; a server started later accepts both', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ambient-cli-'));
    const port = await freePort();
    const env = { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...(await databaseEnv(dataDir)) };
    // A clinician without its partner is refused before the database is opened, naming the option to add.
    const noPartner = await cli(['create-user', '--email', 'dr.a@clinic.example', '--password', 'Change-me-2026', '--role', 'clinician'], env);
    expect(noPartner.code).toBe(2);
    expect(noPartner.stderr).toMatch(/option --partner-id: is required for a clinician unless --provider-id names an existing provider \(npm run admin -- list-partners/);
    const demo = await cli(['demo'], env);
    expect(demo.code, demo.stderr).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'keys', 'dev-issuer.jwk.json'))).toBe(true);
    const key = await cli(['create-api-key', '--name', 'direct', '--json'], env);
    expect(key.code, key.stderr).toBe(0);
    const { key: secret, id } = JSON.parse(key.stdout);
    // The CLI released the directory when it finished.
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);

    const server = await startServer({ dataDir, port });
    servers.push(server);
    const out = demoOutput(demo.stdout);
    expect((await runCurl(out.register)).status).toBe(201);
    const login = await runCurl(out.login);
    expect(login.status).toBe(200);
    expect(await consoleLogin(server.baseUrl, out.email!, out.password!)).toBe(true);
    const keys = await testApi(server, { authorization: `Bearer ${secret}` }).call(listApiKeys);
    expect(keys.status).toBe(200);
    expect((keys.body as { api_keys: Array<{ id: string; created_by: string }> }).api_keys.find((k) => k.id === id)?.created_by).toBe('cli');
  }, 300_000);
});
