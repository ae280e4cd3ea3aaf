/**
 * Issue #12 item 13: after heavy abuse a SIGTERM logged "shutting down" and never exited, and the forced
 * exit did not fire either. The forced exit must not depend on the main thread's event loop or on what
 * `stop` is waiting for. Each case runs the real handler (server/shutdown.ts) in a child process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../harness';

const started: Array<ReturnType<typeof spawn>> = [];
// A child the old handler never stopped must not outlive the test.
afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});

async function signalled(mode: string, forceMs = 500): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/test/security/fixtures/shutdown-child.ts'), mode, String(forceMs)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(proc);
  let output = '';
  // 'close': after the child's output has been read to its end, not only after it exited.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('close', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve) => {
    const onData = (d: Buffer) => {
      output += d;
      if (output.includes('ready')) resolve();
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d) => (output += d));
  });
  proc.kill('SIGTERM');
  return { ...(await exited), output };
}

describe('forced exit on SIGTERM', () => {
  it('exits 0 and logs "stopped" when stopping finishes', async () => {
    const r = await signalled('clean');
    expect(r).toMatchObject({ code: 0, signal: null });
    expect(r.output).toMatch(/shutting down/);
    expect(r.output).toMatch(/"msg":"stopped"/);
  });

  it('writes every line logged while stopping, in order, before it exits', async () => {
    // A forced exit far off: this case is about what reaches the pipe, not how fast.
    const r = await signalled('verbose', 60_000);
    expect(r).toMatchObject({ code: 0, signal: null });
    const entries = r.output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; n?: number });
    const numbered = entries.filter((e) => e.msg === 'shutdown line').map((e) => e.n);
    expect(numbered).toEqual(Array.from({ length: 5_000 }, (_, n) => n));
    expect(entries.at(-1)?.msg).toBe('stopped');
  });

  it('exits 1 when stop() waits forever while other work keeps the event loop busy', async () => {
    const r = await signalled('hang');
    expect(r).toMatchObject({ code: 1, signal: null });
    expect(r.output).toMatch(/did not finish in time; forcing exit/);
  });

  it('exits 1, not a silent 0, when stop() waits on nothing that keeps the process alive', async () => {
    const r = await signalled('idle');
    expect(r).toMatchObject({ code: 1, signal: null });
  });

  it('is killed by the watchdog thread when stop() blocks the event loop so no timer can run', async () => {
    const r = await signalled('block');
    expect(r.signal).toBe('SIGKILL');
    expect(r.output).toMatch(/shutting down/);
  }, 30_000);
});
