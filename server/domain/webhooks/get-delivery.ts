import { asc, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { WebhookDeliveryDetail } from '@/lib/contracts/webhooks';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { webhookAttempts, webhookDeliveries } from '../../db/schema';
import { attemptDto, deliveryDto, type DeliveryRow } from './delivery-dto';

/** A delivery of another partner answers the same 404 as one that does not exist. */
export async function getDeliveryRow(app: AppContext, id: string, admin: AdminPrincipal): Promise<DeliveryRow> {
  const row = await tenantDb(app, admin).find(webhookDeliveries, eq(webhookDeliveries.id, id));
  if (!row) throw notFound(`webhook delivery ${id} not found`);
  return row;
}

export async function getDelivery(app: AppContext, id: string, admin: AdminPrincipal): Promise<WebhookDeliveryDetail> {
  const row = await getDeliveryRow(app, id, admin);
  const attempts = await tenantDb(app, admin).list(webhookAttempts, { where: eq(webhookAttempts.deliveryId, id), orderBy: [asc(webhookAttempts.attempt), asc(webhookAttempts.id)] });
  let payload: unknown = null;
  try {
    payload = JSON.parse(row.body);
  } catch {
    payload = null;
  }
  return { ...deliveryDto(row), body: row.body, payload, attempts_log: attempts.map(attemptDto) };
}
