import { desc, eq } from 'drizzle-orm';
import type { ApiKeyList } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { apiKeys } from '../../db/schema';
import { apiKeyDto } from './api-key-dto';

export async function listApiKeys(app: AppContext, admin: AdminPrincipal): Promise<ApiKeyList> {
  const base = app.db.select().from(apiKeys);
  const rows =
    admin.role === 'partner_admin'
      ? await base.where(eq(apiKeys.partnerId, admin.partnerId ?? '')).orderBy(desc(apiKeys.createdAt))
      : await base.orderBy(desc(apiKeys.createdAt));
  return { api_keys: rows.map(apiKeyDto) };
}
