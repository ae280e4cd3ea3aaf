import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { verifyPassword } from './hash-password';
import { consoleUser, type ConsoleUser } from './console-user';
import { checkSignInLimit } from './check-sign-in-limit';
import { recordSignInResult } from './record-sign-in-result';
import { signInLimitedError } from './sign-in-limits';
import { recordProviderSignIn } from '../providers/record-provider-sign-in';
import { systemDb } from '../../db';

/**
 * Email + password sign-in from `address`; null for an unknown email, a wrong password or a disabled user
 * alike. Throws a 429 ApiError while the account, the address or the pair is over its failure limit, without
 * looking at the password, so guesses made then teach nothing and cost nothing.
 */
export async function verifyCredentials(app: AppContext, email: string, password: string, address: string): Promise<ConsoleUser | null> {
  const account = email.trim().toLowerCase();
  const wait = await checkSignInLimit(app, account, address);
  if (wait > 0) throw signInLimitedError(wait);
  const rows = await systemDb(app, 'sign-in: finds the user a scope will be built from').select().from(users).where(eq(users.email, account)).limit(1);
  const row = rows[0];
  const ok = await verifyPassword(row?.passwordHash ?? null, password);
  if (!row || !ok || row.disabled) {
    await recordSignInResult(app, account, address, row ? 'wrong-password' : 'no-account');
    return null;
  }
  await recordSignInResult(app, account, address, 'signed-in');
  const now = new Date();
  await systemDb(app, 'sign-in: finds the user a scope will be built from').update(users).set({ lastLoginAt: now }).where(eq(users.id, row.id));
  if (row.role === 'clinician' && row.providerId && row.partnerId) await recordProviderSignIn(app, { providerId: row.providerId, partnerId: row.partnerId }, now);
  return consoleUser(row);
}
