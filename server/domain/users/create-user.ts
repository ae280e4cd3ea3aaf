import { and, eq } from 'drizzle-orm';
import { badRequest, conflict, notFound } from '@/lib/errors';
import { CreateUserRequest, type AdminUser } from '@/lib/contracts/admin';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { organizations, partnerOrganizations, partners, providerPartners, providers, users } from '../../db/schema';
import { DEFAULT_SPECIALTY } from '../providers/register-provider';
import { tenantDb, type TenantDb } from '../../db';
import { recordAudit } from '../audit/record-audit';
import { hashPassword } from './hash-password';
import { userDto } from './user-dto';
import { inScope } from '../scope/in-scope';
import { resolvePartnerFilter } from '../scope/resolve-partner-filter';
import { requireAllTenants } from '../scope/require-all-tenants';

type Input = z.output<typeof CreateUserRequest>;

/**
 * The partner link a clinician user acts through: the given provider, or the provider with the given email
 * (default: the user's), linked to the partner; created and linked when no provider has that identity yet.
 * A user is bound to exactly one link, so the partner must be known; a partner admin may only pick
 * providers already registered with its own partner (or new ones), never link another partner's provider.
 */
async function resolveProvider(t: TenantDb, input: Input, partnerId: string | null, admin: AdminPrincipal): Promise<{ providerId: string; partnerId: string }> {
  const partnerAdmin = admin.scope.kind !== 'all';
  // Provider identities and organisations belong to no tenant: an email names one provider, whichever partners it is linked to.
  const tx = t.system('provider identities and organisations are shared by every tenant');
  if (input.provider_id) {
    const links = await t.list(providerPartners, { where: eq(providerPartners.providerId, input.provider_id) });
    // Another partner's provider does not exist as far as a partner admin can tell.
    if (partnerAdmin && !links.some((l) => l.partnerId === partnerId)) throw notFound(`provider_id: provider ${input.provider_id} not found`);
    if (!links.length) throw badRequest(`provider_id: provider ${input.provider_id} does not exist or is not registered with any partner`);
    if (!partnerId) {
      if (links.length > 1) throw badRequest('partner_id: the provider is linked to several partners; name the one this user works under');
      return { providerId: input.provider_id, partnerId: links[0]!.partnerId };
    }
    if (!links.some((l) => l.partnerId === partnerId)) throw badRequest(`provider_id: provider is not linked to partner ${partnerId}`);
    return { providerId: input.provider_id, partnerId };
  }
  if (!partnerId) throw badRequest('partner_id: is required to find or create the provider');
  const email = input.provider_email ?? input.email;
  const candidates = await tx
    .select({ id: providers.id, linked: providerPartners.partnerId })
    .from(providers)
    .leftJoin(providerPartners, and(eq(providerPartners.providerId, providers.id), eq(providerPartners.partnerId, partnerId)))
    .where(eq(providers.email, email));
  const linked = candidates.find((c) => c.linked);
  if (linked) return { providerId: linked.id, partnerId };
  const field = input.provider_email ? 'provider_email' : 'email';
  if (candidates.length && partnerAdmin) {
    throw conflict(`${field}: a provider with email ${email} is registered with another partner; it joins this partner by registering through it, or a service admin links it`);
  }
  let providerId = candidates[0]?.id;
  if (!providerId) {
    const orgExternalId = `console:${partnerId}`;
    await tx.insert(organizations).values({ externalId: orgExternalId }).onConflictDoNothing();
    const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.externalId, orgExternalId)).limit(1);
    await t.insert(partnerOrganizations, { partnerId, organizationId: org!.id }, { onConflict: true });
    const [created] = await tx
      .insert(providers)
      .values({ identityKey: `email:${email}`, email, name: input.name ?? email, specialty: DEFAULT_SPECIALTY, organizationId: org!.id })
      .onConflictDoNothing()
      .returning({ id: providers.id });
    if (!created) throw conflict(`${field}: a provider with identity ${email} exists without that email on record`);
    providerId = created.id;
  } else {
    const [p] = await tx.select({ organizationId: providers.organizationId }).from(providers).where(eq(providers.id, providerId)).limit(1);
    await t.insert(partnerOrganizations, { partnerId, organizationId: p!.organizationId }, { onConflict: true });
  }
  await t.insert(providerPartners, { providerId, partnerId }, { onConflict: true });
  return { providerId, partnerId };
}

export async function createUser(app: AppContext, input: Input, admin: AdminPrincipal): Promise<AdminUser> {
  if (input.role === 'service_admin') requireAllTenants(admin.scope, 'create service admins');
  let partnerId = resolvePartnerFilter(admin.scope, input.partner_id) ?? null;
  if (input.role === 'service_admin') partnerId = null;
  const tdb = tenantDb(app, admin);
  if (partnerId) {
    const p = await tdb.find(partners, eq(partners.partnerId, partnerId));
    if (!p) throw badRequest(`partner_id: partner ${partnerId} does not exist`);
  }
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const row = await tdb.transaction(async (t) => {
    // A console user's email is unique across every tenant: another partner's user with it is a conflict too.
    const [existing] = await t.system('user emails are unique across every tenant').select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
    if (existing) throw conflict(`email: a user with email ${input.email} already exists`);
    let providerId: string | null = null;
    if (input.role === 'clinician') {
      const resolved = await resolveProvider(t, input, partnerId, admin);
      providerId = resolved.providerId;
      partnerId = resolved.partnerId;
      // Defence in depth: whatever the lookup did, a partner admin's user stays inside its partner.
      if (!inScope(admin.scope, users, { partnerId })) throw notFound(`provider_id: provider ${input.provider_id ?? ''} not found`);
    }
    const [inserted] = await t.insert(users, { email: input.email, passwordHash, role: input.role, name: input.name ?? null, partnerId, providerId });
    return inserted!;
  });
  const dto = userDto(row);
  await recordAudit(tdb, { actor: admin.actor, action: 'user.create', targetType: 'user', targetId: dto.id, partnerId: dto.partner_id, after: dto });
  return dto;
}
