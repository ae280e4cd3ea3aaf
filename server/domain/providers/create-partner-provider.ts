import { and, eq } from 'drizzle-orm';
import { badRequest, conflict } from '@/lib/errors';
import type { AdminProvider, CreateProviderRequest } from '@/lib/contracts/admin';
import { providerIdMatches } from '@/lib/provider-id-pattern';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { organizations, partnerOrganizations, providerPartners, providers } from '../../db/schema';
import { getPartnerRow } from '../partners/get-partner';
import { tenantDb } from '../../db';
import { recordAudit } from '../audit/record-audit';
import { DEFAULT_SPECIALTY } from './register-provider';
import { listPartnerProviders } from './list-partner-providers';

/**
 * Adds a provider to a partner from the console, with the identity register would give it (the email for
 * STANDARD partners, the partner's provider_id otherwise), so a later register or login through the
 * partner finds the same provider. A provider already known through another partner is linked only by a
 * service admin: to a partner admin that provider does not exist, and its identity is taken (409).
 */
export async function createPartnerProvider(app: AppContext, partnerId: string, input: CreateProviderRequest, admin: AdminPrincipal): Promise<AdminProvider> {
  const partner = await getPartnerRow(app, partnerId, admin);
  let identityKey = `email:${input.email}`;
  let partnerProviderId: string | null = null;
  if (partner.type !== 'STANDARD') {
    if (!input.provider_id) throw badRequest(`provider_id: is required for ${partner.type} partners`);
    if (!partner.providerIdPattern || !providerIdMatches(partner.providerIdPattern, input.provider_id)) {
      throw badRequest('provider_id: does not match the format agreed for this partner');
    }
    identityKey = `pid:${partnerId}:${input.provider_id}`;
    partnerProviderId = input.provider_id;
  } else if (input.provider_id) {
    throw badRequest('provider_id: STANDARD partners identify providers by email; leave provider_id out');
  }
  const orgExternalId = input.organization_external_id ?? `console:${partnerId}`;
  const tdb = tenantDb(app, admin);
  const providerId = await tdb.transaction(async (t) => {
    // Provider identities and organisations belong to no tenant: one identity may be linked to several partners.
    const tx = t.system('provider identities and organisations are shared by every tenant');
    const [existing] = await tx.select({ id: providers.id }).from(providers).where(eq(providers.identityKey, identityKey)).limit(1);
    if (existing) {
      const linked = await t.find(providerPartners, and(eq(providerPartners.providerId, existing.id), eq(providerPartners.partnerId, partnerId)));
      const field = partnerProviderId ? 'provider_id' : 'email';
      if (linked) throw conflict(`${field}: this provider is already registered with partner ${partnerId}`);
      if (admin.scope.kind !== 'all') throw conflict(`${field}: a provider with this identity is registered with another partner; a service admin links it`);
      await t.insert(providerPartners, { providerId: existing.id, partnerId, partnerProviderId });
      return existing.id;
    }
    await tx.insert(organizations).values({ externalId: orgExternalId }).onConflictDoNothing();
    const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.externalId, orgExternalId)).limit(1);
    await t.insert(partnerOrganizations, { partnerId, organizationId: org!.id }, { onConflict: true });
    const [created] = await tx
      .insert(providers)
      .values({ identityKey, email: input.email, name: input.name, specialty: input.specialty ?? DEFAULT_SPECIALTY, organizationId: org!.id })
      .returning({ id: providers.id });
    await t.insert(providerPartners, { providerId: created!.id, partnerId, partnerProviderId });
    return created!.id;
  });
  const [dto] = (await listPartnerProviders(app, partnerId, { providerId, limit: 1 }, admin)).providers;
  await recordAudit(tdb, { actor: admin.actor, action: 'provider.create', targetType: 'provider', targetId: providerId, partnerId, after: dto });
  return dto!;
}
