import { asc, eq } from 'drizzle-orm';
import type { AdminUserList } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { users } from '../../db/schema';
import { userDto } from './user-dto';

export async function listUsers(app: AppContext, admin: AdminPrincipal): Promise<AdminUserList> {
  const base = app.db.select().from(users);
  const rows =
    admin.role === 'partner_admin'
      ? await base.where(eq(users.partnerId, admin.partnerId ?? '')).orderBy(asc(users.createdAt))
      : await base.orderBy(asc(users.createdAt));
  return { users: rows.map(userDto) };
}
