import { and, eq } from 'drizzle-orm';
import { forbidden } from '@/lib/errors';
import type { ClinicianTokenResponse } from '@/lib/contracts/clinician';
import type { AppContext } from '../../context';
import { partners, providerPartners, providers, users } from '../../db/schema';
import { issueServiceToken } from '../providers/issue-service-token';
import { systemDb } from '../../db';

/**
 * A v1 service token for a signed-in console user, so the clinician app calls the same API partners
 * do. The token always carries the user's own partner link (the one chosen when the user was created):
 * a provider shared with other partners, or registered through them later, never lends the user another
 * partner's sessions.
 */
export async function mintClinicianToken(app: AppContext, userId: string): Promise<ClinicianTokenResponse> {
  const [user] = await systemDb(app, "mints a signed-in user's token from its own user row and partner link")
    .select({ role: users.role, providerId: users.providerId, partnerId: users.partnerId, disabled: users.disabled })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user || user.disabled) throw forbidden('this account is disabled or no longer exists');
  if (user.role !== 'clinician') throw forbidden('only clinician accounts can use the clinician app');
  if (!user.providerId || !user.partnerId) throw forbidden('this clinician account is not linked to a provider; ask an administrator to link it');

  const [link] = await systemDb(app, "mints a signed-in user's token from its own user row and partner link")
    .select({
      providerId: providers.id,
      organizationId: providers.organizationId,
      linkDisabled: providerPartners.disabled,
      partnerProviderId: providerPartners.partnerProviderId,
      partnerType: partners.type,
    })
    .from(providerPartners)
    .innerJoin(providers, eq(providers.id, providerPartners.providerId))
    .innerJoin(partners, eq(partners.partnerId, providerPartners.partnerId))
    .where(and(eq(providerPartners.providerId, user.providerId), eq(providerPartners.partnerId, user.partnerId)))
    .limit(1);
  if (!link) throw forbidden(`the provider linked to this account is no longer registered with partner ${user.partnerId}`);
  if (link.linkDisabled) throw forbidden('provider is disabled');

  const serviceToken = await issueServiceToken(app, {
    providerId: link.providerId,
    partnerId: user.partnerId,
    organizationId: link.organizationId,
    partnerProviderId: link.partnerProviderId,
  });
  return {
    service_token: serviceToken,
    provider_id: link.partnerType === 'STANDARD' ? null : link.partnerProviderId,
    expires_at: new Date(Date.now() + app.config.serviceTokenTtlSeconds * 1000).toISOString(),
  };
}
