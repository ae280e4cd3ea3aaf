import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { partners } from '../../db/schema';
import { partnerDto } from './partner-dto';

export async function listPartners(app: AppContext, admin: AdminPrincipal) {
  const query = app.db.select().from(partners);
  const rows =
    admin.role === 'partner_admin'
      ? await query.where(eq(partners.partnerId, admin.partnerId ?? '')).orderBy(asc(partners.createdAt))
      : await query.orderBy(asc(partners.createdAt));
  return rows.map(partnerDto);
}
