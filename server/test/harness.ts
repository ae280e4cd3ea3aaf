import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const ADMIN_KEY = 'test-admin-key-0123456789';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Builds the Next app once per checkout; the test script builds up front, so this is for direct vitest runs. */
export function ensureNextBuild(): void {
  const dist = process.env.NEXT_DIST_DIR || '.next';
  if (fs.existsSync(path.join(ROOT, dist, 'BUILD_ID'))) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('next build failed');
}

export interface TestServer {
  baseUrl: string;
  wsUrl: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  logs: () => string;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash, with no chance to flush anything. */
  kill(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  port?: number;
  /** Runs on the same PostgreSQL database as this server (two processes of one deployment); PostgreSQL only. */
  shareDatabaseWith?: TestServer;
  /**
   * Starts the Procfile's entry of this name, its command and variables as written there, instead of the
   * default `server/main.ts` with WORKERS from the environment. A 'worker' has no HTTP: it is up once it logs so.
   */
  procfile?: 'web' | 'worker';
}

/** A Procfile line (`name: VAR=value ... node args...`) as the variables it sets and the command it runs. */
export function procfileEntry(name: string): { env: Record<string, string>; argv: string[] } {
  const line = fs.readFileSync(path.join(ROOT, 'Procfile'), 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`Procfile has no ${name} entry`);
  const words = line.slice(name.length + 1).trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
    const [key, ...value] = words.shift()!.split('=');
    env[key!] = value.join('=');
  }
  if (words[0] !== 'node') throw new Error(`Procfile ${name} entry must run node directly (signals reach it unforwarded)`);
  return { env, argv: words.slice(1) };
}

/**
 * With TEST_DATABASE_URL set (CI's PostgreSQL pass), every server gets a fresh database on that server,
 * so tests stay isolated exactly as they are with a fresh PGlite directory.
 */
export async function freshPostgresDatabase(adminUrl: string): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `ambient_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh PGlite directory costs an initdb in WebAssembly: seconds on an idle machine, nearly a minute on a
 * loaded one, for every test server. It is made once per PGlite version and migration set (initialised and
 * migrated, as the server would leave it) and copied into each fresh data directory instead.
 */
async function pgliteTemplate(): Promise<string> {
  const hash = crypto.createHash('sha256');
  hash.update(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  const migrations = path.join(ROOT, 'server/db/migrations');
  for (const f of (fs.readdirSync(migrations, { recursive: true }) as string[]).sort()) {
    const p = path.join(migrations, f);
    if (fs.statSync(p).isFile()) hash.update(f).update(fs.readFileSync(p));
  }
  const dir = path.join(os.tmpdir(), `ambient-pglite-template-${hash.digest('hex').slice(0, 16)}`);
  if (fs.existsSync(path.join(dir, 'ready'))) return dir;
  const building = fs.mkdtempSync(`${dir}-building-`);
  const { openDatabase } = await import('../db/client');
  const db = await openDatabase({ dataDir: building });
  await db.close();
  fs.writeFileSync(path.join(building, 'ready'), '');
  try {
    fs.renameSync(building, dir);
  } catch {
    // Another test process finished its copy first; theirs is the same.
    fs.rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

async function answersReady(baseUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/api/ready`)).status === 200;
  } catch {
    return false; // not listening yet
  }
}

/** Starts the real service (server/main.ts) as a child process on a free port and a fresh data directory. */
export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  ensureNextBuild();
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ambient-test-'));
  if (!opts.dataDir && !opts.shareDatabaseWith && !process.env.TEST_DATABASE_URL && !opts.env?.DATABASE_URL) {
    fs.cpSync(path.join(await pgliteTemplate(), 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const databaseEnv: Record<string, string> = {};
  if (opts.shareDatabaseWith) {
    const shared = testDatabaseUrl(opts.shareDatabaseWith.dataDir);
    if (!shared) throw new Error('shareDatabaseWith needs PostgreSQL (TEST_DATABASE_URL): PGlite admits one process');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'test-database-url'), shared);
  }
  if (process.env.TEST_DATABASE_URL && !opts.env?.DATABASE_URL) {
    fs.mkdirSync(dataDir, { recursive: true });
    const marker = path.join(dataDir, 'test-database-url');
    databaseEnv.DATABASE_URL = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : await freshPostgresDatabase(process.env.TEST_DATABASE_URL);
    fs.writeFileSync(marker, databaseEnv.DATABASE_URL);
  }
  let output = '';
  const entry = opts.procfile ? procfileEntry(opts.procfile) : { env: {}, argv: ['--import', 'tsx', path.join(ROOT, 'server/main.ts')] };
  // BENCH_CPU_PROF=<dir> profiles the server (node --cpu-prof is not allowed in NODE_OPTIONS); benches use it.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const proc = spawn(process.execPath, [...profile, ...entry.argv], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...entry.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: baseUrl,
      ADMIN_API_KEY: ADMIN_KEY,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // Every answer is checked against its route contract: an undeclared status or a body its schema refuses is a 500 naming it.
      CHECK_RESPONSES: 'true',
      LOG_LEVEL: 'info',
      ...databaseEnv,
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  // 'close', not 'exit': the exit can come before the last lines of its output have been read.
  const exited = new Promise<number | null>((resolve) => proc.once('close', (code, signal) => { if (signal) output += `\n[harness] server ended by ${signal}\n`; resolve(code); }));
  // A bound for a wedged start, not a speed check: a cold start (tsx compiling the server, Next loading
  // its build, the code sets) took over 90 s on two cores shared with other suites and builds.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited during start:\n${output}`);
    const up = opts.procfile === 'worker' ? output.includes('"worker started"') : await answersReady(baseUrl);
    if (up) break;
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    wsUrl: baseUrl.replace(/^http/, 'ws'),
    port,
    dataDir,
    proc,
    logs: () => output,
    async stop() {
      if (proc.exitCode !== null) return proc.exitCode;
      proc.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** The DATABASE_URL a test server on this data directory runs on: its PostgreSQL database, or none for PGlite. */
export function testDatabaseUrl(dataDir: string): string | undefined {
  const marker = path.join(dataDir, 'test-database-url');
  return fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : undefined;
}

/** Opens the database a (stopped, for PGlite) test server used, on either backend. */
export async function openTestDatabase(dataDir: string) {
  const { openDatabase } = await import('../db/client');
  return openDatabase({ dataDir, databaseUrl: testDatabaseUrl(dataDir) });
}
