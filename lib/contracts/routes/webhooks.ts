import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { PartnerId } from '@/lib/contracts/partners';
import { ListDeliveriesQuery, TestWebhookResult, WebhookDelivery, WebhookDeliveryDetail, WebhookDeliveryList } from '@/lib/contracts/webhooks';

const DeliveryParams = z.object({ id: z.uuid({ message: 'must be a UUID' }) });

export const listDeliveries = defineContract({
  method: 'GET',
  path: '/api/admin/v1/webhook-deliveries',
  summary: 'List webhook deliveries (newest first)',
  description: 'Filter by partner, session, status or event type; page with next_cursor. Partner admins see only their own partner.',
  tags: ['Admin', 'Webhooks'],
  auth: 'admin',
  query: ListDeliveriesQuery,
  responses: { 200: { description: 'deliveries', schema: WebhookDeliveryList } },
});

export const getDelivery = defineContract({
  method: 'GET',
  path: '/api/admin/v1/webhook-deliveries/{id}',
  summary: 'Get a webhook delivery: the exact body sent and every attempt with its request headers and outcome',
  tags: ['Admin', 'Webhooks'],
  auth: 'admin',
  params: DeliveryParams,
  responses: { 200: { description: 'delivery', schema: WebhookDeliveryDetail } },
  errors: ['not_found'],
});

export const redeliverWebhook = defineContract({
  method: 'POST',
  path: '/api/admin/v1/webhook-deliveries/{id}/redeliver',
  summary: 'Re-deliver now: a new attempt sequence with the same webhook-id',
  tags: ['Admin', 'Webhooks'],
  auth: 'admin',
  params: DeliveryParams,
  responses: { 200: { description: 'the delivery, pending', schema: WebhookDelivery } },
  errors: ['not_found', 'conflict'],
});

export const sendTestWebhook = defineContract({
  method: 'POST',
  path: '/api/admin/v1/partners/{partner_id}/test-webhook',
  summary: "Send a signed sample notification to the partner's webhook URL and report the receiver's answer",
  description:
    'The sample is a SUCCESS notification with made-up identifiers and additional_info.test = true. It is recorded as a delivery (event_type test); a retryable failure is retried on the normal schedule.',
  tags: ['Admin', 'Webhooks'],
  auth: 'admin',
  params: z.object({ partner_id: PartnerId }),
  responses: { 200: { description: 'result of the first attempt', schema: TestWebhookResult } },
  errors: ['not_found'],
});
