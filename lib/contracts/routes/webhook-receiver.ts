/**
 * The reference partner receiver (spec: POST /webhooks/notification), which partners copy to receive
 * this service's notifications. The body is read raw: the signature covers the exact bytes.
 */
import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';

export const receiveNotification = defineContract({
  method: 'POST',
  path: '/webhooks/notification',
  summary: 'Reference receiver for session and CKG notifications (X-API-Key HMAC and generated-at checked)',
  description:
    'Verifies X-API-Key (HMAC-SHA256 of `generated-at:body` with WEBHOOK_RECEIVER_SECRET) and refuses a generated-at more than 5 minutes off the receiver clock, then accepts a SUCCESS/FAILURE status or a COMPLETED/FAILED/ABORTED state. 503 until WEBHOOK_RECEIVER_SECRET is set.',
  tags: ['Webhooks'],
  auth: 'none',
  responses: { 200: { description: 'accepted', schema: z.object({ message: z.string() }) } },
  errors: ['invalid_request', 'invalid_token', 'payload_too_large', 'unavailable'],
});
