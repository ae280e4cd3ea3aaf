import { desc } from 'drizzle-orm';
import type { ApiKeyList } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { apiKeys } from '../../db/schema';
import { apiKeyDto } from './api-key-dto';

export async function listApiKeys(app: AppContext, admin: AdminPrincipal): Promise<ApiKeyList> {
  const rows = await tenantDb(app, admin).list(apiKeys, { orderBy: desc(apiKeys.createdAt) });
  return { api_keys: rows.map(apiKeyDto) };
}
