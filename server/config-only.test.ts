import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Services are given their configuration (CONTRIBUTING, Composition root), so a setting read from the
 * environment anywhere else would bypass Config and its documentation. These are the only exceptions, each
 * for a reason Config cannot serve.
 */
const ALLOWED: Record<string, string> = {
  'server/config.ts': 'the one reader',
  'server/main.ts': 'passes the environment on to the child `next build`',
};
const TEST_SUPPORT = /\.test\.ts$|^server\/test\/|\/fixtures\//;

describe('the environment is read only by server/config.ts', () => {
  it('no other server file reads process.env', () => {
    const files = (fs.readdirSync(path.join(ROOT, 'server'), { recursive: true }) as string[])
      .map((f) => path.posix.join('server', f.split(path.sep).join('/')))
      .filter((f) => f.endsWith('.ts') && !TEST_SUPPORT.test(f));
    expect(files.length).toBeGreaterThan(200);
    const found = files.filter((f) => !(f in ALLOWED) && /\bprocess\.env\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });
});
