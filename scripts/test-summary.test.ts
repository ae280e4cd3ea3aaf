import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const script = path.resolve(import.meta.dirname, 'test-summary.mjs');

function summarise(reports: unknown[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'summary-'));
  const files = reports.map((r, i) => {
    const f = path.join(dir, `results-${i}.json`);
    fs.writeFileSync(f, JSON.stringify(r));
    return f;
  });
  const run = spawnSync(process.execPath, [script, ...files, path.join(dir, 'absent.json')], { cwd: dir, encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  return { status: run.status, out: run.stdout };
}

const vitest = (dir: string, extra: object = {}) => ({
  numPassedTests: 2,
  numFailedTests: 1,
  numPendingTests: 0,
  testResults: [
    {
      name: path.join(dir, 'server/a.test.ts'),
      status: 'failed',
      assertionResults: [
        { status: 'passed', title: 'works', fullName: 'a works' },
        { status: 'failed', title: 'breaks', fullName: 'a breaks', failureMessages: ['\u001b[31mAssertionError: expected 3 to be 4\u001b[39m\n    at x.ts:1'] },
      ],
    },
    { name: path.join(dir, 'server/b.test.ts'), status: 'passed', assertionResults: [{ status: 'passed', title: 'fine' }] },
  ],
  ...extra,
});

describe('test summary', () => {
  it('names each failed test with the start of its error before the closing line, and exits 1', () => {
    const playwright = {
      stats: { expected: 3, unexpected: 1, flaky: 0, skipped: 1 },
      suites: [{ file: 'e2e/c.spec.ts', specs: [], suites: [{ specs: [{ title: 'reconnects', tests: [{ status: 'unexpected', results: [{ error: { message: 'Timed out waiting for "Recording"' } }] }] }] }] }],
    };
    const { status, out } = summarise([vitest(fs.realpathSync(os.tmpdir())), playwright]);
    expect(status).toBe(1);
    const lines = out.trim().split('\n');
    expect(lines.at(-1)).toBe('5 passed, 2 failed, 1 skipped');
    expect(out).toContain('FAILED');
    expect(out).toMatch(/a breaks\n {4}AssertionError: expected 3 to be 4/);
    expect(out).toContain('e2e/c.spec.ts › reconnects\n    Timed out waiting for "Recording"');
    expect(out).not.toContain('\u001b[');
  });

  it('counts a file that failed before any test ran', () => {
    const report = { numPassedTests: 1, numFailedTests: 0, numPendingTests: 0, testResults: [{ name: '/x/server/c.test.ts', status: 'failed', message: 'Error: Cannot find module ./gone', assertionResults: [] }] };
    const { status, out } = summarise([report]);
    expect(status).toBe(1);
    expect(out).toContain('(file)\n    Error: Cannot find module ./gone');
    expect(out.trim().split('\n').at(-1)).toBe('1 passed, 1 failed, 0 skipped');
  });

  it('passes with one line when nothing failed, and fails when nothing ran', () => {
    const ok = summarise([{ numPassedTests: 4, numFailedTests: 0, numPendingTests: 0, testResults: [] }]);
    expect(ok).toEqual({ status: 0, out: '4 passed, 0 failed, 0 skipped\n' });
    expect(summarise([]).status).toBe(1);
  });
});
