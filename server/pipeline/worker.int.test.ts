import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { synthesizeDialogue } from '../engines/speech/synth';
import { testApi } from '../test/api-client';
import { createSession, getSessionStatus } from '@/lib/contracts/routes/sessions';

// A separate worker process needs a database two processes can share: PostgreSQL only. scripts/test.sh leaves
// this file out of the PGlite pass by name; run without TEST_DATABASE_URL it fails, it does not skip.
beforeAll(() => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('this test needs PostgreSQL: set TEST_DATABASE_URL (PGlite admits one process)');
});

let server: TestServer | undefined;
let worker: ChildProcess | undefined;
afterAll(async () => {
  if (worker && worker.exitCode === null) worker.kill('SIGKILL');
  await server?.stop();
});

describe('npm run worker', () => {
  it('finalises sessions streamed to a web process that runs no workers, and stops on SIGTERM', async () => {
    server = await startServer({ env: { WORKERS: '0' } });
    const databaseUrl = fs.readFileSync(path.join(server.dataDir, 'test-database-url'), 'utf8');
    let output = '';
    worker = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/worker.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: server.dataDir, WORKERS: '1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (d) => (output += d));
    worker.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => worker!.once('exit', (code) => resolve(code)));

    const provider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const created = await testApi(server, provider).call(createSession, { body: {} });
    const { ambient_session_id: id } = created.body as { ambient_session_id: string };
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
    ws.startTime();
    await ws.sendPcm(synthesizeDialogue([{ role: 'PATIENT', text: 'The patient reports a headache and a cough. Her blood pressure is normal today.' }], 500).pcm);
    ws.eof();
    await ws.closed;

    const deadline = Date.now() + 180_000;
    let status = '';
    while (Date.now() < deadline) {
      status = ((await testApi(server, provider).call(getSessionStatus, { params: { ambient_session_id: id } })).body as { status: string }).status;
      if (['completed', 'failed', 'skipped'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(status, output).toBe('completed');
    // The worker logs after it commits the status, so the line may reach the pipe after the poll saw it.
    for (const until = Date.now() + 60_000; !/session finalised/.test(output) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    expect(output).toMatch(/session finalised/);

    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toMatch(/worker stopped/);
  }, 300_000);
});
