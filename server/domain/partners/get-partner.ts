import { eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { partners } from '../../db/schema';
import { resolvePartnerFilter } from '../scope/resolve-partner-filter';

/** A partner admin asking for another partner gets the same 404 as for a partner that does not exist. */
export async function getPartnerRow(app: AppContext, partnerId: string, admin: AdminPrincipal) {
  resolvePartnerFilter(admin.scope, partnerId);
  const row = await tenantDb(app, admin).find(partners, eq(partners.partnerId, partnerId));
  if (!row) throw notFound(`partner ${partnerId} not found`);
  return row;
}
