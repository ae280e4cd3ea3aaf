import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AdminProvider } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { providerPartners } from '../../db/schema';
import { invalidateServiceAuth } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { recordAudit } from '../audit/record-audit';
import { closeProviderStreams } from '../sessions/close-provider-streams';
import { listPartnerProviders } from './list-partner-providers';

/**
 * Disables (or, with disabled=false, re-enables) a provider's link to one partner. Through that partner the
 * provider's login is refused and its live service tokens stop working once the auth cache is dropped; a
 * provider shared with other partners keeps working through them, since one partner must not act on another.
 * Disabling also ends the provider's open streams through that partner in this process; other web processes
 * end theirs at their next sweep (DISABLED_STREAMS_SWEEP_MS), and refuse new ones at authentication.
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
  const tdb = tenantDb(app, admin);
  await tdb.update(providerPartners, { disabled }, and(eq(providerPartners.providerId, providerId), eq(providerPartners.partnerId, partnerId)));
  invalidateServiceAuth(app);
  // Its open streams would otherwise keep running on the token checked when they opened (issue 26).
  if (disabled) await closeProviderStreams(app, { kind: 'provider', partnerId, providerId });
  const after = { ...before, disabled };
  await recordAudit(tdb, {
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
