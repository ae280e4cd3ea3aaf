import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCANNED = ['server'];
const PRINCIPAL = String.raw`\b(?:admin|auth|principal)`;

/**
 * Ways a tenant filter used to be written by hand, each of which a new resource could forget. Principals'
 * ids may still be recorded (who created or signed a row); they must not decide what a query can see.
 */
const HAND_BUILT: Array<[RegExp, string]> = [
  [new RegExp(String.raw`${PRINCIPAL}\??\.role\b`), "a role check: read the principal's scope (built once, by adminScope)"],
  [new RegExp(String.raw`\b(?:eq|ne)\([^()]*,\s*${PRINCIPAL}\.(?:partnerId|providerId)\b`), 'a tenant filter from principal ids: read through tenantDb(app, auth)'],
  [new RegExp(String.raw`${PRINCIPAL}\??\.(?:partnerId|providerId)\s*(?:[!=]==|\?\?)|[!=]==\s*${PRINCIPAL}\.(?:partnerId|providerId)\b`), 'a tenant comparison: use inScope or resolvePartnerFilter'],
];

function sources(dir: string): string[] {
  return (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.split(path.sep).includes('scope'))
    .map((f) => path.join(dir, f));
}

describe('tenant filters come from the scope', () => {
  it('no server code filters by principal ids or roles by hand', () => {
    const found: string[] = [];
    const files = SCANNED.flatMap(sources);
    expect(files.length).toBeGreaterThan(200);
    for (const file of files) {
      fs.readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const [pattern, what] of HAND_BUILT) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('would catch the filters it replaced', () => {
    const old = [
      "  const scope = admin.role === 'partner_admin' ? eq(apiKeys.partnerId, admin.partnerId ?? '') : undefined;",
      '      .where(and(eq(ambientSessions.id, sessionId), eq(ambientSessions.providerId, auth.providerId)))',
      '  if (!entry || entry.providerId !== auth.providerId) throw notFound("x");',
      "  if (admin?.role === 'partner_admin' && admin.partnerId !== partnerId) throw notFound('x');",
    ];
    for (const line of old) expect(HAND_BUILT.some(([p]) => p.test(line)), line).toBe(true);
  });
});
