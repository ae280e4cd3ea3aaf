import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { providerPartners, providers } from '../../db/schema';
import { systemDb } from '../../db';

/**
 * A clinician's console sign-in is the provider's login through the partner the account is bound to, so
 * the console's "Last login" says when they last signed in, as a partner login through the API would.
 */
export async function recordProviderSignIn(app: AppContext, link: { providerId: string; partnerId: string }, at: Date): Promise<void> {
  await systemDb(app, 'records the sign-in of a provider just authenticated').update(providers).set({ lastLoginAt: at }).where(eq(providers.id, link.providerId));
  await systemDb(app, 'records the sign-in of a provider just authenticated')
    .update(providerPartners)
    .set({ lastLoginAt: at })
    .where(and(eq(providerPartners.providerId, link.providerId), eq(providerPartners.partnerId, link.partnerId)));
}
