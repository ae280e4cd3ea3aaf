import { desc } from 'drizzle-orm';
import type { ApiKeyList } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { apiKeys } from '../../db/schema';
import { apiKeyDto } from './api-key-dto';
import { scopeWhere } from '../scope/scope-where';

export async function listApiKeys(app: AppContext, admin: AdminPrincipal): Promise<ApiKeyList> {
  const rows = await app.db.select().from(apiKeys).where(scopeWhere(admin.scope, apiKeys)).orderBy(desc(apiKeys.createdAt));
  return { api_keys: rows.map(apiKeyDto) };
}
