import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AdminProvider, AdminProviderList, ListProvidersQuery } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { organizations, providerPartners, providers } from '../../db/schema';
import { getPartnerRow } from '../partners/get-partner';
import { decodeCursor, encodeCursor } from '../admin-sessions/cursor';
import { tenantDb } from '../../db';

const linkedMs = sql`date_trunc('milliseconds', ${providerPartners.createdAt})`;

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Providers linked to a partner, newest link first. `q` matches name, email, the partner's provider_id or
 * the organisation's external id. `providerId` narrows to one provider (used after a change).
 */
export async function listPartnerProviders(
  app: AppContext,
  partnerId: string,
  q: ListProvidersQuery & { providerId?: string },
  admin: AdminPrincipal,
): Promise<AdminProviderList> {
  await getPartnerRow(app, partnerId, admin);
  const where: Array<SQL | undefined> = [eq(providerPartners.partnerId, partnerId)];
  if (q.providerId) where.push(eq(providers.id, q.providerId));
  if (q.q) {
    const like = `%${escapeLike(q.q)}%`;
    where.push(
      or(ilike(providers.name, like), ilike(providers.email, like), ilike(providerPartners.partnerProviderId, like), ilike(organizations.externalId, like))!,
    );
  }
  const after = decodeCursor(q.cursor, ['date', 'string']);
  if (after) {
    const [at, id] = after as [Date, string];
    where.push(sql`(${linkedMs}, ${providers.id}) < (${at.toISOString()}::timestamptz, ${id}::uuid)`);
  }
  const rows = await tenantDb(app, admin)
    .select(providerPartners, { p: providers, link: providerPartners, orgExternalId: organizations.externalId }, and(...where))
    .innerJoin(providers, eq(providers.id, providerPartners.providerId))
    .innerJoin(organizations, eq(organizations.id, providers.organizationId))
    .orderBy(desc(linkedMs), desc(providers.id))
    .limit(q.limit + 1);
  const pageRows = rows.slice(0, q.limit);
  const last = pageRows.at(-1);
  return {
    providers: pageRows.map(
      (r): AdminProvider => ({
        provider_id: r.p.id,
        name: r.p.name,
        email: r.p.email,
        specialty: r.p.specialty,
        organization_external_id: r.orgExternalId,
        partner_provider_id: r.link.partnerProviderId,
        link_state: 'linked',
        linked_at: r.link.createdAt.toISOString(),
        created_at: r.p.createdAt.toISOString(),
        last_login_at: r.link.lastLoginAt?.toISOString() ?? null,
        disabled: r.link.disabled,
      }),
    ),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.link.createdAt.toISOString(), last.p.id]) : null,
  };
}
