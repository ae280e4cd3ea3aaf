import type { AdminUser } from '@/lib/contracts/admin';
import type { users } from '../../db/schema';

/** Never includes the password hash. */
export function userDto(row: typeof users.$inferSelect): AdminUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as AdminUser['role'],
    partner_id: row.partnerId,
    provider_id: row.providerId,
    disabled: row.disabled,
    created_at: row.createdAt.toISOString(),
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
  };
}
