import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { consoleUser, type ConsoleUser } from './console-user';
import { systemDb } from '../../db';

/** The current, enabled user for a session or an OIDC sign-in; null if it was removed or disabled since. */
export async function findConsoleUser(app: AppContext, by: { id: string } | { email: string }): Promise<ConsoleUser | null> {
  const where = 'id' in by ? eq(users.id, by.id) : eq(users.email, by.email.trim().toLowerCase());
  if ('id' in by && !/^[0-9a-f-]{36}$/i.test(by.id)) return null;
  const rows = await systemDb(app, 'sign-in and console sessions: finds the user a scope will be built from').select().from(users).where(where).limit(1);
  const row = rows[0];
  if (!row || row.disabled) return null;
  return consoleUser(row);
}
