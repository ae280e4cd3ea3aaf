import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(dir, f));
}

// Import rules (which folder may import which) are dependency-cruiser's (.dependency-cruiser.cjs); this one
// is about a string, which no import graph shows.
describe('the stream protocol', () => {
  it('spells the EOF marker once, in its contract', () => {
    const dirs = ['lib', 'server', 'scripts', 'bench', 'e2e', 'components', 'app'];
    const spelt = dirs.flatMap((d) => sources(d).filter((f) => fs.readFileSync(path.join(ROOT, f), 'utf8').includes(['RU', '9G'].join(''))));
    expect(spelt).toEqual(['lib/contracts/stream-protocol.ts']);
  });
});
