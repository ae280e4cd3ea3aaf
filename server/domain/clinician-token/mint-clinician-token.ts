import { and, desc, eq, sql } from 'drizzle-orm';
import { forbidden } from '@/lib/errors';
import type { ClinicianTokenResponse } from '@/lib/contracts/clinician';
import type { AppContext } from '../../context';
import { partners, providerPartners, providers, users } from '../../db/schema';
import { issueServiceToken } from '../providers/issue-service-token';

/**
 * A v1 service token for a signed-in console user, so the clinician app calls the same API partners
 * do. The user must be a clinician linked to an enabled provider that some partner has registered; the
 * link used is the one most recently logged in through (the partner the clinician normally works under).
 */
export async function mintClinicianToken(app: AppContext, userId: string): Promise<ClinicianTokenResponse> {
  const [user] = await app.db
    .select({ role: users.role, providerId: users.providerId, disabled: users.disabled })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user || user.disabled) throw forbidden('this account is disabled or no longer exists');
  if (user.role !== 'clinician') throw forbidden('only clinician accounts can use the clinician app');
  if (!user.providerId) throw forbidden('this clinician account is not linked to a provider; ask an administrator to link it');

  const [link] = await app.db
    .select({
      providerId: providers.id,
      organizationId: providers.organizationId,
      providerDisabled: providers.disabled,
      partnerId: providerPartners.partnerId,
      partnerProviderId: providerPartners.partnerProviderId,
      partnerType: partners.type,
    })
    .from(providerPartners)
    .innerJoin(providers, eq(providers.id, providerPartners.providerId))
    .innerJoin(partners, eq(partners.partnerId, providerPartners.partnerId))
    .where(and(eq(providerPartners.providerId, user.providerId)))
    .orderBy(sql`${providerPartners.lastLoginAt} desc nulls last`, desc(providerPartners.createdAt))
    .limit(1);
  if (!link) throw forbidden('the provider linked to this account is not registered with any partner');
  if (link.providerDisabled) throw forbidden('provider is disabled');

  const serviceToken = await issueServiceToken(app, {
    providerId: link.providerId,
    partnerId: link.partnerId,
    organizationId: link.organizationId,
    partnerProviderId: link.partnerProviderId,
  });
  return {
    service_token: serviceToken,
    provider_id: link.partnerType === 'STANDARD' ? null : link.partnerProviderId,
    expires_at: new Date(Date.now() + app.config.serviceTokenTtlSeconds * 1000).toISOString(),
  };
}
