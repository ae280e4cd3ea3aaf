import * as contract from '@/lib/contracts/routes/webhooks';
import { bindRoute } from '../http/route';
import { listDeliveries } from '../domain/webhooks/list-deliveries';
import { getDelivery } from '../domain/webhooks/get-delivery';
import { redeliverWebhook } from '../domain/webhooks/redeliver-webhook';
import { sendTestWebhook } from '../domain/webhooks/send-test-webhook';

export const webhookRoutes = [
  bindRoute(contract.listDeliveries, ({ app, query, auth }) => listDeliveries(app, query, auth)),
  bindRoute(contract.getDelivery, ({ app, params, auth }) => getDelivery(app, params.id, auth)),
  bindRoute(contract.redeliverWebhook, ({ app, params, auth }) => redeliverWebhook(app, params.id, auth)),
  bindRoute(contract.sendTestWebhook, ({ app, params, auth }) => sendTestWebhook(app, params.partner_id, auth)),
];
