import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureNextBuild, freePort } from '../server/test/harness';
import { synthesize } from '../server/engines/speech/synth';
import { encodeWavPcm16 } from '../server/engines/speech/audio';

/**
 * Runs the README's commands as a newcomer would, against `npm start` on a fresh data directory. Only the
 * placeholders are filled in (<token>, <service_token>, the visit.wav path, and the port the server was
 * given); every other character is the README's. A command added to the README that this test neither
 * runs nor names a reason for fails it.
 */
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** Commands in ```bash blocks (continuations joined, comments dropped) and in inline code spans. */
function readmeCommands(md: string): string[] {
  const out: string[] = [];
  for (const block of md.matchAll(/```bash\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, '');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').replace(/^#.*$/, '').trim();
      if (line) out.push(line);
    }
  }
  for (const span of md.replace(/```[\s\S]*?```/g, '').matchAll(/`((?:npm|curl) [^`]+)`/g)) out.push(span[1]!.replace(/\s+/g, ' ').trim());
  return [...new Set(out)];
}

/** Commands this test does not run, each with where it is exercised instead. */
const NOT_RUN_HERE: Array<[RegExp, string]> = [
  [/^npm run setup( && npm start)?$/, 'CI runs scripts/setup.sh on every clean clone (.ci/run); npm start is run below'],
  [/^npm test$/, 'CI runs it (.ci/run)'],
  [/^npm run (lint|depcruise)$/, 'npm test runs both as written (scripts/test.sh, "lint and layering"), on every clean clone'],
  [/^npm run test:unit$/, 'the unit project of the vitest configuration whose every project npm test runs'],
  [/^npm ci$/, 'installs from the same package-lock.json and .npmrc as scripts/setup.sh, which CI runs on every clean clone; an npm ci with onnxruntime-node\'s install script allowed was checked by hand (commit ef5a4af)'],
  [/^npm run dev$/, 'development mode of the same server; compiles pages on demand, minutes on two cores'],
  [/^npm run worker$/, 'needs PostgreSQL: server/pipeline/worker.int.test.ts runs it'],
  [/^npm run bench:[a-z-]+( -- .*)?$/, 'benchmarks print figures over minutes of CPU; run by hand (bench/RESULTS.md)'],
  [/^npm run gen:routes$/, 'rewrites tracked files in app/; its output is the committed route files the build uses'],
  [/^npm run speech:build-lm$/, 'rebuilds the committed speech models (server/engines/speech/model: lean.lm.bin, lean.dict, clinical.*) from train and Debian\'s en-us model over minutes of CPU; its output is what every test decodes with (commit 6e22ae4), and lm.test / lm/trie.test cover its parts'],
  [/^npm run db:generate$/, 'writes a migration when the schema changed; migrations are applied by every test server'],
  [/^npm run admin -- (<command>|create-user)$/, 'the general form; the concrete admin commands are run below'],
  [/^npm run speech:models -- (list|verify|download [\w.-]+ --accept-unpinned)$/, 'scripts/speech/models.test.ts runs list, download (from a local stand-in for the model host) and verify'],
  [/^SPEECH_ENGINE=(sherpa|embedded) npm start$/, 'server/engines/speech/sherpa/sherpa.int.test.ts starts the service with SPEECH_ENGINE=sherpa on a generated model; embedded is the default npm start run below'],
];

let dir: string;
let server: ChildProcess | undefined;
let exited: Promise<number | null>;
let port: number;
let base: string;
let serverLog = '';
const fills: Record<string, string> = {};

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(dir, 'data'), PORT: String(port), HOST: '127.0.0.1', BASE_URL: base, LOG_LEVEL: 'warn' };
  // The newcomer's shell, not the test runner's.
  for (const k of ['NODE_ENV', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'TEST_DATABASE_URL', 'DATABASE_URL']) delete e[k];
  return e;
}

/** The README's line with only its placeholders filled in. */
function fill(cmd: string): string {
  let c = cmd.replaceAll('http://127.0.0.1:3000', base).replaceAll(' visit.wav', ` ${path.join(dir, 'visit.wav')}`);
  for (const [k, v] of Object.entries(fills)) c = c.replaceAll(k, v);
  expect(c, `placeholder left in: ${cmd}`).not.toMatch(/<[a-z_]+>|…/);
  return c;
}

function run(cmd: string): { status: number | null; out: string; stdout: string } {
  const r = spawnSync('bash', ['-c', fill(cmd)], { cwd: ROOT, env: env(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

// The README runs the service on its PGlite default, whichever database the other tests were given.

beforeAll(async () => {
  ensureNextBuild();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  fs.writeFileSync(path.join(dir, 'visit.wav'), encodeWavPcm16(synthesize('The patient has had a cough and a fever for three days. Her blood pressure is normal.')));
  // `npm start`, as written; its own process group so the whole tree stops with it.
  server = spawn('npm', ['start'], { cwd: ROOT, env: env(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (d) => (serverLog += d));
  server.stderr!.on('data', (d) => (serverLog += d));
  exited = new Promise((resolve) => server!.once('exit', resolve));
  for (;;) {
    if (server.exitCode !== null) throw new Error(`npm start exited:\n${serverLog}`);
    const ready = await fetch(`${base}/api/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    await new Promise((r) => setTimeout(r, 250));
  }
}, 240_000);

afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('README commands', () => {
  const commands = readmeCommands(README);

  it('every command is run here or names where it is run', () => {
    // npm start is the server every other command here talks to.
    const covered = [/^npm start$/, /^npm run admin -- /, /^curl /, /^npm run example:stream -- /, /^npm run transcribe -- /];
    const unknown = commands.filter((c) => !covered.some((r) => r.test(c)) && !NOT_RUN_HERE.some(([r]) => r.test(c)));
    expect(unknown).toEqual([]);
    expect(commands).toContain('npm run admin -- demo');
  });

  it('npm run admin -- demo, then the curl lines, as written', () => {
    const demo = run('npm run admin -- demo');
    expect(demo.status, demo.out).toBe(0);
    expect(demo.out).toMatch(/Demo partner: demo/);
    const token = /partner_token \(email [^)]*\):\n(\S+)/.exec(demo.out)?.[1];
    expect(token, demo.out).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    fills['<token>'] = token!;

    const curls = commands.filter((c) => c.startsWith('curl '));
    expect(curls.map((c) => /\/api\/v1\/[\w/]+/.exec(c)?.[0])).toEqual(['/api/v1/auth/register', '/api/v1/auth/login', '/api/v1/info/specialties']);
    const register = run(curls[0]!);
    expect(register.out).toMatch(/^HTTP\/1\.1 201/m);
    const login = run(curls[1]!);
    const { service_token } = JSON.parse(login.stdout) as { service_token: string };
    expect(service_token).toMatch(/^eyJ/);
    fills['<service_token>'] = service_token;
    const specialties = JSON.parse(run(curls[2]!).stdout) as unknown;
    expect(JSON.stringify(specialties)).toMatch(/FAMILY_MEDICINE/);
  }, 240_000);

  it('creates and lists console users as written', () => {
    const admin = commands.filter((c) => /^npm run admin -- (create-user|list-users)\b/.test(c) && c !== 'npm run admin -- create-user');
    expect(admin.length).toBeGreaterThanOrEqual(4);
    for (const c of admin) {
      const r = run(c);
      expect(r.status, `${c}\n${r.out}`).toBe(0);
    }
    const list = run('npm run admin -- list-users').out;
    for (const email of ['dr.lee@clinic.example', 'office@clinic.example', 'ops@example.org', 'demo@example.com']) expect(list).toContain(email);
    expect(list).toMatch(/dr\.lee@clinic\.example\s+clinician\s+demo\s+[0-9a-f-]{36}/);
  }, 240_000);

  it('streams a WAV with example:stream and transcribes it with transcribe', () => {
    const stream = commands.find((c) => c.startsWith('npm run example:stream -- '))!;
    const s = run(stream);
    expect(s.status, s.out).toBe(0);
    expect(s.out).toMatch(/final status: completed/);
    expect(s.out).toMatch(/== Transcript ==\n\S/);

    const plain = run('npm run transcribe -- visit.wav');
    expect(plain.status, plain.out).toBe(0);
    expect(commands).toContain('npm run transcribe -- visit.wav --json');
    const json = run('npm run transcribe -- visit.wav --json');
    expect(json.status, json.out).toBe(0);
    const parsed = JSON.parse(json.stdout.slice(json.stdout.indexOf('{'))) as { segments: Array<{ text: string }> };
    expect(parsed.segments.length).toBeGreaterThan(0);
    // The same engine on the same audio: the plain output is the JSON's segments, line for line.
    expect(plain.stdout.trim().split('\n').slice(-parsed.segments.length).join('\n')).toContain(parsed.segments.at(-1)!.text);
  }, 300_000);
});
