import type { users } from '../../db/schema';

export type ConsoleRole = 'service_admin' | 'partner_admin' | 'clinician';

/** What a signed-in console session carries: enough to authorise without a database read per page. */
export interface ConsoleUser {
  id: string;
  email: string;
  name: string | null;
  role: ConsoleRole;
  partnerId: string | null;
  providerId: string | null;
}

export function consoleUser(row: typeof users.$inferSelect): ConsoleUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as ConsoleRole,
    partnerId: row.partnerId,
    providerId: row.providerId,
  };
}
