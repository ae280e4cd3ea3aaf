import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { badRequest } from '@/lib/errors';
import type { TestWebhookResult } from '@/lib/contracts/webhooks';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { webhookDeliveries } from '../../db/schema';
import { getPartnerRow } from '../partners/get-partner';
import { enqueueWebhook } from '../../webhooks/enqueue-webhook';
import { deliverWebhook } from '../../webhooks/deliver-webhook';
import { buildSessionSuccess } from '../../webhooks/payloads';
import { recordAudit } from '../audit/record-audit';
import { deliveryDto } from './delivery-dto';

/**
 * Sends a signed sample notification and reports the receiver's answer. Receivers must answer 400 to a
 * status they do not know, so the sample is a SUCCESS notification for made-up identifiers, marked
 * `additional_info.test = true`. It goes through the outbox like any notification: the first attempt is
 * made here, and a retryable failure is retried on the normal schedule.
 */
export async function sendTestWebhook(app: AppContext, partnerId: string, admin: AdminPrincipal): Promise<TestWebhookResult> {
  const partner = await getPartnerRow(app, partnerId, admin);
  if (!partner.webhookUrl) throw badRequest(`webhook_url: partner ${partnerId} has no webhook URL to test`);
  const sessionId = crypto.randomUUID();
  const body = buildSessionSuccess(app.config.publicBaseUrl, { id: sessionId, encounterId: crypto.randomUUID(), status: 'completed' }, [sessionId], { test: true });
  const enqueued = await enqueueWebhook(app, { partnerId, eventType: 'test', eventKey: `test:${crypto.randomUUID()}`, body, dispatch: false });
  if (!enqueued) throw badRequest(`webhook_url: partner ${partnerId} has no webhook URL to test`);
  const outcome = await deliverWebhook(app, enqueued.deliveryId);
  const tdb = tenantDb(app, admin);
  const row = (await tdb.find(webhookDeliveries, eq(webhookDeliveries.id, enqueued.deliveryId)))!;
  await recordAudit(tdb, {
    actor: admin.actor,
    action: 'partner.test_webhook',
    targetType: 'webhook_delivery',
    targetId: row.id,
    partnerId,
    after: { status: row.status, response_code: row.lastResponseCode },
  });
  return {
    delivered: outcome.outcome === 'delivered',
    response_code: row.lastResponseCode,
    error: row.status === 'delivered' ? null : row.lastError,
    delivery: deliveryDto(row),
  };
}
