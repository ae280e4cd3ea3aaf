import { asc } from 'drizzle-orm';
import type { AdminUserList } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { users } from '../../db/schema';
import { userDto } from './user-dto';
import { scopeWhere } from '../scope/scope-where';

export async function listUsers(app: AppContext, admin: AdminPrincipal): Promise<AdminUserList> {
  const rows = await app.db.select().from(users).where(scopeWhere(admin.scope, users)).orderBy(asc(users.createdAt));
  return { users: rows.map(userDto) };
}
