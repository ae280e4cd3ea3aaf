import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { partners } from '../../db/schema';
import { resolvePartnerFilter } from '../scope/resolve-partner-filter';
import { scopeWhere } from '../scope/scope-where';

/** A partner admin asking for another partner gets the same 404 as for a partner that does not exist. */
export async function getPartnerRow(app: AppContext, partnerId: string, admin: AdminPrincipal) {
  resolvePartnerFilter(admin.scope, partnerId);
  const rows = await app.db
    .select()
    .from(partners)
    .where(and(eq(partners.partnerId, partnerId), scopeWhere(admin.scope, partners)))
    .limit(1);
  if (!rows[0]) throw notFound(`partner ${partnerId} not found`);
  return rows[0];
}
