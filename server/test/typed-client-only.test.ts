/**
 * API tests call routes through the typed client (server/test/api-client.ts: `testApi(server, who).call(contract, …)`),
 * not by literal paths (issue 28 item 4). This fails when a test file under server/ writes a literal `/api/v1/` or
 * `/api/admin/v1/` path as a string of its own or after a base URL (`'/api/v1/…'`, `${server.baseUrl}/api/v1/…`),
 * except:
 * - an OpenAPI path (`/api/v1/…/{ambient_session_id}`), which names a route rather than calling it;
 * - the hostile-input suites (server/test/hostile/), whose point is requests no contract admits;
 * - a line marked `// raw fetch: <why>` (bad JSON, a wrong method or content type, raw bytes, a path no contract
 *   declares) or `// not a request: <why>` (an expected link or label), on it or on the comment line above.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LITERAL = /(?<=['"`}])\/api\/(?:admin\/)?v1\/[^'"`\s]*/g;
/** `{name}` not part of `${…}`: an OpenAPI path. */
const OPENAPI_PARAM = /(?<!\$)\{\w+\}/;
const HOSTILE = 'server/test/hostile/';
const MARK = /\/\/ (?:raw fetch|not a request): \S/;


function testFiles(dir: string): string[] {
  return (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')));
}

/** Literal API paths in a file's text, lines marked `// raw fetch:` (or below such a line) left out. */
function literalPaths(text: string): number {
  const lines = text.split('\n');
  let count = 0;
  lines.forEach((line, i) => {
    if (MARK.test(line) || (i > 0 && MARK.test(lines[i - 1]!) && /^\s*\/\//.test(lines[i - 1]!))) return;
    count += (line.match(LITERAL) ?? []).filter((p) => !OPENAPI_PARAM.test(p)).length;
  });
  return count;
}

describe('API tests use the typed client', () => {
  it('counts literal paths, not marked raw fetches', () => {
    expect(literalPaths("await call(server, dr, '/api/v1/ambient/session/create');")).toBe(1);
    expect(literalPaths("fetch(`${base}/api/admin/v1/partners`)")).toBe(1);
    expect(literalPaths("// raw fetch: malformed JSON\nfetch(`${base}/api/v1/auth/login`, { body: '{' })")).toBe(0);
    expect(literalPaths("fetch(`${base}/api/v1/nope`) // raw fetch: no such route")).toBe(0);
    expect(literalPaths("fetch(`${base}/api/health`)")).toBe(0);
    expect(literalPaths("doc.paths['/api/v1/ambient/session/{ambient_session_id}/fhir']")).toBe(0);
    expect(literalPaths("call(a, dr, 'GET', `/api/v1/ambient/session/${id}/fhir`)")).toBe(1);
    expect(literalPaths("describe('GET /api/v1/ambient/sessions', () => {")).toBe(0);
    expect(literalPaths("href: `${server.baseUrl}/api/v1/ambient/session/${id}/status` // not a request: the link a payload carries")).toBe(0);
  });

  it('no test file under server/ writes a literal /api/v1/ path', () => {
    const self = 'server/test/typed-client-only.test.ts';
    const over: string[] = [];
    for (const file of testFiles('server')) {
      if (file === self || file.startsWith(HOSTILE)) continue;
      const count = literalPaths(fs.readFileSync(path.join(ROOT, file), 'utf8'));
      if (count > 0) over.push(`${file}: ${count} literal /api/ paths; call the route through testApi(…).call(contract, …)`);
    }
    expect(over).toEqual([]);
  });
});
