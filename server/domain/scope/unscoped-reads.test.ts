import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema';
import { TENANT_TABLES } from './tenant-tables';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCOPED = /\b(?:scopeWhere|inScope|resolvePartnerFilter)\(/;

/**
 * Code that reads a tenant table without a scope, and why it may. Everything else that reads one must
 * filter through the scope, so a new request path cannot read another tenant's rows by forgetting to.
 */
const UNSCOPED_BY_DESIGN: Record<string, string> = {
  'server/auth/authenticate-service.ts': 'authenticates the caller: no scope exists before it',
  'server/auth/authenticate-admin.ts': 'authenticates an admin API key: no scope exists before it',
  'server/domain/users/verify-credentials.ts': 'sign-in: finds the user a scope will be built from',
  'server/domain/users/find-console-user.ts': 'sign-in and console sessions: finds the user a scope will be built from',
  'server/domain/clinician-token/mint-clinician-token.ts': "mints a signed-in user's token from its own user row and partner link",
  'server/domain/providers/resolve-partner-identity.ts': "partner login: reads the partner named by the token it verifies",
  'server/domain/providers/register-provider.ts': 'provider registration under a verified partner token',
  'server/domain/sessions/create-session.ts': 'a caller-chosen session id must be unique across tenants (409 naming no owner)',
  'server/domain/sessions/transition-session.ts': 'status change of a session already found through the scope, or by a job',
  'server/domain/sessions/find-abandoned-sessions.ts': 'abandoned-visit sweep (a job): sessions of every tenant',
  'server/domain/note-signoff/notify-note-signed.ts': "queues the note-signed notification for the session's own partner after a scoped sign",
  'server/domain/visit-summary/get-visit-summary.ts': "reads the clinic setting of the partner owning a session found through the scope",
  'server/domain/webhooks/send-test-webhook.ts': 'reads back the delivery it has just created for a partner found through the scope',
  'server/domain/demo/setup-demo.ts': 'service admins only (requireAllTenants in its handler)',
  'server/domain/ckg/process-ckg-transaction.ts': 'CKG worker: transactions of every tenant',
  'server/domain/ckg/sweep-ckg-transactions.ts': 'CKG sweeper: transactions of every tenant',
  'server/pipeline/finalise-worker.ts': 'finalisation worker: sessions of every tenant',
  'server/pipeline/finalise-session.ts': "finalisation job: its session by id; the tenant's data through sessionScope",
  'server/webhooks/deliver-webhook.ts': "webhook outbox worker: every tenant's deliveries",
  'server/webhooks/enqueue-webhook.ts': "webhook outbox: the delivery's own partner, named by the event",
  'server/webhooks/enqueue-session-webhook.ts': "webhook outbox: the session's own partner",
  'server/webhooks/sweep-deliveries.ts': "webhook outbox sweeper: every tenant's deliveries",
};

const TENANT_TABLE_NAMES = new Set<unknown>(Object.values(TENANT_TABLES).map((e) => e.table));
const tableVars = Object.entries(schema)
  .filter(([, v]) => TENANT_TABLE_NAMES.has(v))
  .map(([k]) => k);
const READS_TENANT_TABLE = new RegExp(String.raw`\.from\(\s*(?:${tableVars.join('|')})\s*\)`);

function serverSources(): string[] {
  return (fs.readdirSync(path.join(ROOT, 'server'), { recursive: true }) as string[])
    .map((f) => path.join('server', f))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith(path.join('server', 'test')) && !f.includes(`${path.sep}scope${path.sep}`));
}

describe('reads of tenant tables', () => {
  const readers = serverSources().filter((f) => READS_TENANT_TABLE.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));

  it('go through the scope, or are listed here as unscoped by design', () => {
    expect(tableVars.length).toBe(Object.keys(TENANT_TABLES).length);
    expect(readers.length).toBeGreaterThan(20);
    const unscoped = readers.filter((f) => !(f in UNSCOPED_BY_DESIGN) && !SCOPED.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(unscoped, 'these read a tenant table without scopeWhere/inScope: scope the query, or list the file with its reason').toEqual([]);
  });

  it('lists no file that no longer reads one', () => {
    expect(Object.keys(UNSCOPED_BY_DESIGN).filter((f) => !readers.includes(f))).toEqual([]);
  });
});
