import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import { badRequest } from '@/lib/errors';
import type { ListDeliveriesQuery } from '@/lib/contracts/webhooks';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { webhookDeliveries } from '../../db/schema';
import { deliveryDto } from './delivery-dto';
import { parseCursorDate } from '../admin-sessions/cursor';

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = parseCursorDate(at);
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || !createdAt) throw badRequest('cursor: is not a cursor returned by this endpoint');
  return { createdAt, id };
}

/** Newest first, keyset-paginated. A partner admin sees only its own partner's deliveries. */
export async function listDeliveries(app: AppContext, query: ListDeliveriesQuery, admin: AdminPrincipal) {
  // Another partner named by a partner admin is an empty list, not a 404: the filter narrows, the scope bounds.
  const where: SQL[] = [];
  if (query.partner_id) where.push(eq(webhookDeliveries.partnerId, query.partner_id));
  if (query.session_id) where.push(eq(webhookDeliveries.sessionId, query.session_id));
  if (query.status) where.push(eq(webhookDeliveries.status, query.status));
  if (query.event_type) where.push(eq(webhookDeliveries.eventType, query.event_type));
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    where.push(or(lt(webhookDeliveries.createdAt, c.createdAt), and(eq(webhookDeliveries.createdAt, c.createdAt), lt(webhookDeliveries.id, c.id)))!);
  }
  const rows = await tenantDb(app, admin).list(webhookDeliveries, {
    where: and(...where),
    orderBy: [desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)],
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return { deliveries: page.map(deliveryDto), next_cursor: rows.length > query.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}
