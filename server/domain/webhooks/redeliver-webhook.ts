import { and, eq, ne } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { webhookDeliveries } from '../../db/schema';
import { dispatchDelivery } from '../../webhooks/queues';
import { tenantDb } from '../../db';
import { recordAudit } from '../audit/record-audit';
import { deliveryDto } from './delivery-dto';
import { getDeliveryRow } from './get-delivery';

/**
 * Starts a new attempt sequence now, whatever the delivery's state (a receiver that lost a delivered
 * notification asks for it again). The webhook-id stays the same so receivers can de-duplicate;
 * webhook-attempt keeps counting, and the retry schedule starts over from this point.
 */
export async function redeliverWebhook(app: AppContext, id: string, admin: AdminPrincipal) {
  const before = await getDeliveryRow(app, id, admin);
  const tdb = tenantDb(app, admin);
  const [row] = await tdb.update(
    webhookDeliveries,
    { status: 'pending', nextAttemptAt: new Date(), sequenceStart: before.attempts, deliveredAt: null, leaseUntil: null },
    and(eq(webhookDeliveries.id, id), ne(webhookDeliveries.status, 'delivering')),
  );
  if (!row) throw conflict(`webhook delivery ${id} is being attempted right now; try again when the attempt finishes`);
  await dispatchDelivery(app, id);
  await recordAudit(tdb, {
    actor: admin.actor,
    action: 'webhook_delivery.redeliver',
    targetType: 'webhook_delivery',
    targetId: id,
    partnerId: row.partnerId,
    before: { status: before.status, attempts: before.attempts },
    after: { status: row.status },
  });
  return deliveryDto(row);
}
