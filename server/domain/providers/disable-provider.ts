import { eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AdminProvider } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { providers } from '../../db/schema';
import { invalidateServiceAuth } from '../../auth/authenticate-service';
import { recordAudit } from '../audit/record-audit';
import { listPartnerProviders } from './list-partner-providers';

/**
 * Disables (or, with disabled=false, re-enables) a provider linked to the partner. A disabled provider's
 * login is refused and its live service tokens stop working once the auth cache is dropped.
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
  await app.db.update(providers).set({ disabled }).where(eq(providers.id, providerId));
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
