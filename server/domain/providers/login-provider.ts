import { and, eq } from 'drizzle-orm';
import { forbidden, notFound } from '@/lib/errors';
import type { LoginRequest } from '@/lib/contracts/auth';
import type { AppContext } from '../../context';
import { providerPartners, providers } from '../../db/schema';
import { resolvePartnerIdentity } from './resolve-partner-identity';
import { issueServiceToken } from './issue-service-token';
import { systemDb } from '../../db';

export async function loginProvider(app: AppContext, input: LoginRequest): Promise<{ service_token: string }> {
  const identity = await resolvePartnerIdentity(app, input);
  const partnerId = identity.partner.partnerId;
  const rows = await systemDb(app, 'partner login: finds the provider a scope will be built from')
    .select({ id: providers.id, organizationId: providers.organizationId, disabled: providerPartners.disabled, linkedPartner: providerPartners.partnerId, ppid: providerPartners.partnerProviderId })
    .from(providers)
    .leftJoin(providerPartners, and(eq(providerPartners.providerId, providers.id), eq(providerPartners.partnerId, partnerId)))
    .where(eq(providers.identityKey, identity.identityKey))
    .limit(1);
  const row = rows[0];
  if (!row || !row.linkedPartner) throw notFound('provider is not registered with this partner; call register first');
  if (row.disabled) throw forbidden('provider is disabled');
  const now = new Date();
  await systemDb(app, 'partner login: finds the provider a scope will be built from').update(providers).set({ lastLoginAt: now }).where(eq(providers.id, row.id));
  await systemDb(app, 'partner login: finds the provider a scope will be built from')
    .update(providerPartners)
    .set({ lastLoginAt: now })
    .where(and(eq(providerPartners.providerId, row.id), eq(providerPartners.partnerId, partnerId)));
  const service_token = await issueServiceToken(app, { providerId: row.id, partnerId, organizationId: row.organizationId, partnerProviderId: row.ppid });
  return { service_token };
}
