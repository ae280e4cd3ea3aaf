import { asc } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { partners } from '../../db/schema';
import { partnerDto } from './partner-dto';
import { scopeWhere } from '../scope/scope-where';

export async function listPartners(app: AppContext, admin: AdminPrincipal) {
  const rows = await app.db.select().from(partners).where(scopeWhere(admin.scope, partners)).orderBy(asc(partners.createdAt));
  return rows.map(partnerDto);
}
