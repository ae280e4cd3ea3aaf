import { eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { ApiKey } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { apiKeys } from '../../db/schema';
import { recordAudit } from '../audit/record-audit';
import { apiKeyDto } from './api-key-dto';

/** Revoking is immediate (keys are looked up per request) and idempotent. */
export async function revokeApiKey(app: AppContext, id: string, admin: AdminPrincipal): Promise<ApiKey> {
  const tdb = tenantDb(app, admin);
  const current = await tdb.find(apiKeys, eq(apiKeys.id, id));
  if (!current) throw notFound(`api key ${id} not found`);
  if (current.revokedAt) return apiKeyDto(current);
  const [row] = await tdb.update(apiKeys, { revokedAt: new Date() }, eq(apiKeys.id, id));
  const before = apiKeyDto(current);
  const after = apiKeyDto(row!);
  await recordAudit(tdb, { actor: admin.actor, action: 'api_key.revoke', targetType: 'api_key', targetId: id, partnerId: current.partnerId, before, after });
  return after;
}
