import { asc } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { partners } from '../../db/schema';
import { partnerDto } from './partner-dto';

export async function listPartners(app: AppContext, admin: AdminPrincipal) {
  const rows = await tenantDb(app, admin).list(partners, { orderBy: asc(partners.createdAt) });
  return rows.map(partnerDto);
}
