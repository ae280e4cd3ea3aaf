import { forbidden, notFound } from '@/lib/errors';
import type { ApiKeyWithSecret, CreateApiKeyRequest } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { apiKeys } from '../../db/schema';
import { randomToken, sha256Hex } from '../../auth/secret-box';
import { recordAudit } from '../audit/record-audit';
import { getPartnerRow } from '../partners/get-partner';
import { apiKeyDto } from './api-key-dto';

export const API_KEY_PREFIX = 'amb_';

/** The key is returned once; only its SHA-256 is stored (it is random, so a slow hash adds nothing). */
export async function createApiKey(app: AppContext, input: CreateApiKeyRequest, admin: AdminPrincipal): Promise<ApiKeyWithSecret> {
  let partnerId = input.partner_id ?? null;
  if (admin.role === 'partner_admin') {
    if (partnerId === null) partnerId = admin.partnerId;
    else if (partnerId !== admin.partnerId) throw notFound(`partner ${partnerId} not found`);
  }
  if (partnerId === null && admin.role !== 'service_admin') throw forbidden('only service admins create service-wide keys');
  if (partnerId) await getPartnerRow(app, partnerId, admin);
  const key = randomToken(API_KEY_PREFIX);
  const [row] = await app.db
    .insert(apiKeys)
    .values({ name: input.name, prefix: key.slice(0, API_KEY_PREFIX.length + 6), keyHash: sha256Hex(key), partnerId, createdBy: admin.actor })
    .returning();
  const dto = apiKeyDto(row!);
  await recordAudit(app.db, { actor: admin.actor, action: 'api_key.create', targetType: 'api_key', targetId: dto.id, partnerId, after: dto });
  return { ...dto, key };
}
