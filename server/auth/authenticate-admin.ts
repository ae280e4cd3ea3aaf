import { and, eq, isNull } from 'drizzle-orm';
import { unauthorized } from '@/lib/errors';
import type { AppContext } from '../context';
import { apiKeys } from '../db/schema';
import { constantTimeEqual, sha256Hex } from './secret-box';
import { adminScope } from '../domain/scope/admin-scope';
import type { AdminPrincipal, ConsoleAdminResolver } from './principals';
import { systemDb } from '../db';

export type { AdminPrincipal, ConsoleAdminResolver };

/** The one way to build an admin principal, so its scope always agrees with its role and partner. */
export function adminPrincipal(role: AdminPrincipal['role'], partnerId: string | null, actor: string): AdminPrincipal {
  return { role, partnerId, actor, scope: adminScope(role, partnerId) };
}

export async function authenticateAdmin(app: AppContext, req: Request): Promise<AdminPrincipal> {
  const header = req.headers.get('authorization');
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  if (match) {
    const key = match[1]!;
    if (app.config.adminApiKey && constantTimeEqual(key, app.config.adminApiKey)) {
      return adminPrincipal('service_admin', null, 'api-key:ADMIN_API_KEY');
    }
    const hash = sha256Hex(key);
    if (app.cliTokenHash && constantTimeEqual(hash, app.cliTokenHash)) {
      return adminPrincipal('service_admin', null, 'cli');
    }
    const rows = await systemDb(app, 'authenticates an admin API key: no scope exists before it')
      .select({ id: apiKeys.id, name: apiKeys.name, partnerId: apiKeys.partnerId })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1);
    const row = rows[0];
    if (row) {
      void systemDb(app, 'authenticates an admin API key: no scope exists before it').update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id)).catch(() => {});
      return adminPrincipal(row.partnerId ? 'partner_admin' : 'service_admin', row.partnerId, `api-key:${row.name}`);
    }
    throw unauthorized('admin API key is invalid or revoked');
  }
  const resolver = app.services.consoleResolver;
  const principal = resolver ? await resolver(req) : null;
  if (principal) return principal;
  throw unauthorized('admin credentials are required: Authorization: Bearer <api key>');
}
