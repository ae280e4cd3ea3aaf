import type { ApiKeyWithSecret, CreateApiKeyRequest } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { apiKeys } from '../../db/schema';
import { randomToken, sha256Hex } from '../../auth/secret-box';
import { recordAudit } from '../audit/record-audit';
import { getPartnerRow } from '../partners/get-partner';
import { apiKeyDto } from './api-key-dto';
import { resolvePartnerFilter } from '../scope/resolve-partner-filter';
import { requireAllTenants } from '../scope/require-all-tenants';

export const API_KEY_PREFIX = 'amb_';

/** The key is returned once; only its SHA-256 is stored (it is random, so a slow hash adds nothing). */
export async function createApiKey(app: AppContext, input: CreateApiKeyRequest, admin: AdminPrincipal): Promise<ApiKeyWithSecret> {
  const partnerId = resolvePartnerFilter(admin.scope, input.partner_id) ?? null;
  if (partnerId === null) requireAllTenants(admin.scope, 'create service-wide keys');
  if (partnerId) await getPartnerRow(app, partnerId, admin);
  const key = randomToken(API_KEY_PREFIX);
  const tdb = tenantDb(app, admin);
  const [row] = await tdb.insert(apiKeys, { name: input.name, prefix: key.slice(0, API_KEY_PREFIX.length + 6), keyHash: sha256Hex(key), partnerId, createdBy: admin.actor });
  const dto = apiKeyDto(row!);
  await recordAudit(tdb, { actor: admin.actor, action: 'api_key.create', targetType: 'api_key', targetId: dto.id, partnerId, after: dto });
  return { ...dto, key };
}
