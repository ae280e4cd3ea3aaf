import { and, eq } from 'drizzle-orm';
import { conflict, forbidden } from '@/lib/errors';
import type { RegisterRequest } from '@/lib/contracts/auth';
import type { AppContext } from '../../context';
import { organizations, partnerOrganizations, providerPartners, providers } from '../../db/schema';
import { resolvePartnerIdentity } from './resolve-partner-identity';
import { systemDb } from '../../db';

export const DEFAULT_SPECIALTY = 'FAMILY_MEDICINE';

/** The spec's Register table: new provider, existing provider newly linked, or already linked (409). */
export async function registerProvider(app: AppContext, input: RegisterRequest): Promise<{ created: 'provider' | 'link' }> {
  const identity = await resolvePartnerIdentity(app, input);
  const partnerId = identity.partner.partnerId;
  return systemDb(app, 'provider registration under a verified partner token').transaction(async (tx) => {
    const existing = (
      await tx
        .select({ id: providers.id, organizationId: providers.organizationId, orgExternalId: organizations.externalId })
        .from(providers)
        .innerJoin(organizations, eq(organizations.id, providers.organizationId))
        .where(eq(providers.identityKey, identity.identityKey))
        .limit(1)
    )[0];

    if (existing) {
      const linked = await tx
        .select({ providerId: providerPartners.providerId })
        .from(providerPartners)
        .where(and(eq(providerPartners.providerId, existing.id), eq(providerPartners.partnerId, partnerId)))
        .limit(1);
      if (linked[0]) throw conflict('provider and organization are already linked to this partner');
      if (existing.orgExternalId !== input.provider_org_id) {
        throw forbidden('provider_org_id: the provider is registered with a different organization');
      }
      await tx.insert(partnerOrganizations).values({ partnerId, organizationId: existing.organizationId }).onConflictDoNothing();
      await tx.insert(providerPartners).values({ providerId: existing.id, partnerId, partnerProviderId: identity.partnerProviderId });
      return { created: 'link' as const };
    }

    await tx.insert(organizations).values({ externalId: input.provider_org_id }).onConflictDoNothing();
    const org = (await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.externalId, input.provider_org_id)).limit(1))[0]!;
    await tx.insert(partnerOrganizations).values({ partnerId, organizationId: org.id }).onConflictDoNothing();
    const [provider] = await tx
      .insert(providers)
      .values({
        identityKey: identity.identityKey,
        email: identity.email,
        name: input.provider_name,
        specialty: input.provider_specialty ?? DEFAULT_SPECIALTY,
        organizationId: org.id,
      })
      .returning({ id: providers.id });
    await tx.insert(providerPartners).values({ providerId: provider!.id, partnerId, partnerProviderId: identity.partnerProviderId });
    return { created: 'provider' as const };
  });
}
