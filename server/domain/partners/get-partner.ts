import { eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { partners } from '../../db/schema';

/** A partner admin asking for another partner gets the same 404 as for a partner that does not exist. */
export async function getPartnerRow(app: AppContext, partnerId: string, admin?: AdminPrincipal) {
  if (admin?.role === 'partner_admin' && admin.partnerId !== partnerId) throw notFound(`partner ${partnerId} not found`);
  const rows = await app.db.select().from(partners).where(eq(partners.partnerId, partnerId)).limit(1);
  if (!rows[0]) throw notFound(`partner ${partnerId} not found`);
  return rows[0];
}
