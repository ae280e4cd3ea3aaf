import * as contract from '@/lib/contracts/routes/webhook-receiver';
import { bindRoute, json } from '../http/route';
import { readRawBody } from '../http/body';
import { MAX_BODY_BYTES, receiveNotification } from '../webhooks/receiver';

export const webhookReceiverRoutes = [
  bindRoute(contract.receiveNotification, async ({ app, req }) => {
    const rawBody = await readRawBody(req, MAX_BODY_BYTES);
    const result = receiveNotification({
      secret: app.config.webhookReceiverSecret,
      generatedAt: req.headers.get('generated-at'),
      signature: req.headers.get('x-api-key'),
      rawBody,
    });
    if (result.accepted) {
      app.log.info({ kind: result.accepted.kind, id: result.accepted.id, value: result.accepted.value, webhookId: req.headers.get('webhook-id') }, 'reference receiver accepted a notification');
    }
    return json(result.body, result.status);
  }),
];
