import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { ApiKey } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { apiKeys } from '../../db/schema';
import { recordAudit } from '../audit/record-audit';
import { apiKeyDto } from './api-key-dto';
import { scopeWhere } from '../scope/scope-where';

/** Revoking is immediate (keys are looked up per request) and idempotent. */
export async function revokeApiKey(app: AppContext, id: string, admin: AdminPrincipal): Promise<ApiKey> {
  const [current] = await app.db.select().from(apiKeys).where(and(eq(apiKeys.id, id), scopeWhere(admin.scope, apiKeys))).limit(1);
  if (!current) throw notFound(`api key ${id} not found`);
  if (current.revokedAt) return apiKeyDto(current);
  const [row] = await app.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id)).returning();
  const before = apiKeyDto(current);
  const after = apiKeyDto(row!);
  await recordAudit(app.db, { actor: admin.actor, action: 'api_key.revoke', targetType: 'api_key', targetId: id, partnerId: current.partnerId, before, after });
  return after;
}
