import { and, asc, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { WebhookDeliveryDetail } from '@/lib/contracts/webhooks';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { webhookAttempts, webhookDeliveries } from '../../db/schema';
import { attemptDto, deliveryDto, type DeliveryRow } from './delivery-dto';
import { scopeWhere } from '../scope/scope-where';

/** A delivery of another partner answers the same 404 as one that does not exist. */
export async function getDeliveryRow(app: AppContext, id: string, admin: AdminPrincipal): Promise<DeliveryRow> {
  const row = (await app.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.id, id), scopeWhere(admin.scope, webhookDeliveries))).limit(1))[0];
  if (!row) throw notFound(`webhook delivery ${id} not found`);
  return row;
}

export async function getDelivery(app: AppContext, id: string, admin: AdminPrincipal): Promise<WebhookDeliveryDetail> {
  const row = await getDeliveryRow(app, id, admin);
  const attempts = await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(asc(webhookAttempts.attempt), asc(webhookAttempts.id));
  let payload: unknown = null;
  try {
    payload = JSON.parse(row.body);
  } catch {
    payload = null;
  }
  return { ...deliveryDto(row), body: row.body, payload, attempts_log: attempts.map(attemptDto) };
}
