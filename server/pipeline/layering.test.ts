import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(dir, f));
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

const resolvesInto = (file: string, spec: string, dir: string): boolean => {
  const target = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), spec)) : null;
  return target !== null && (target === dir || target.startsWith(`${dir}/`));
};

describe('layering', () => {
  it('server/pipeline never imports server/realtime: streaming calls the pipeline, not the reverse', () => {
    const offending = sources('server/pipeline').flatMap((f) => importsOf(f).filter((s) => resolvesInto(f, s, 'server/realtime')).map((s) => `${f} → ${s}`));
    expect(offending).toEqual([]);
  });

  it('the check sees an import when there is one', () => {
    expect(sources('server/realtime').some((f) => importsOf(f).some((s) => resolvesInto(f, s, 'server/pipeline')))).toBe(true);
  });

  it('the EOF marker is spelt once, in the stream protocol contract', () => {
    const dirs = ['lib', 'server', 'scripts', 'bench', 'e2e', 'components', 'app'];
    const spelt = dirs.flatMap((d) => sources(d).filter((f) => fs.readFileSync(path.join(ROOT, f), 'utf8').includes(['RU', '9G'].join(''))));
    expect(spelt).toEqual(['lib/contracts/stream-protocol.ts']);
  });
});
