import { asc } from 'drizzle-orm';
import type { AdminUserList } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { users } from '../../db/schema';
import { userDto } from './user-dto';

export async function listUsers(app: AppContext, admin: AdminPrincipal): Promise<AdminUserList> {
  const rows = await tenantDb(app, admin).select(users).orderBy(asc(users.createdAt));
  return { users: rows.map(userDto) };
}
