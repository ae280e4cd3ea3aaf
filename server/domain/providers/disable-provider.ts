import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AdminProvider } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { providerPartners } from '../../db/schema';
import { invalidateServiceAuth } from '../../auth/authenticate-service';
import { recordAudit } from '../audit/record-audit';
import { listPartnerProviders } from './list-partner-providers';

/**
 * Disables (or, with disabled=false, re-enables) a provider's link to one partner. Through that partner the
 * provider's login is refused and its live service tokens stop working once the auth cache is dropped; a
 * provider shared with other partners keeps working through them, since one partner must not act on another.
 */
export async function disableProvider(
  app: AppContext,
  partnerId: string,
  providerId: string,
  admin: AdminPrincipal,
  disabled = true,
): Promise<AdminProvider> {
  const found = await listPartnerProviders(app, partnerId, { providerId, limit: 1 }, admin);
  const before = found.providers[0];
  if (!before) throw notFound(`provider ${providerId} not found for partner ${partnerId}`);
  await app.db
    .update(providerPartners)
    .set({ disabled })
    .where(and(eq(providerPartners.providerId, providerId), eq(providerPartners.partnerId, partnerId)));
  invalidateServiceAuth(app);
  const after = { ...before, disabled };
  await recordAudit(app.db, {
    actor: admin.actor,
    action: disabled ? 'provider.disable' : 'provider.enable',
    targetType: 'provider',
    targetId: providerId,
    partnerId,
    before: { disabled: before.disabled },
    after: { disabled },
  });
  return after;
}
