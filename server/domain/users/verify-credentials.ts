import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { verifyPassword } from './hash-password';
import { consoleUser, type ConsoleUser } from './console-user';

/** Email + password sign-in; null for an unknown email, a wrong password or a disabled user alike. */
export async function verifyCredentials(app: AppContext, email: string, password: string): Promise<ConsoleUser | null> {
  const rows = await app.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  const row = rows[0];
  const ok = await verifyPassword(row?.passwordHash ?? null, password);
  if (!row || !ok || row.disabled) return null;
  await app.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, row.id));
  return consoleUser(row);
}
