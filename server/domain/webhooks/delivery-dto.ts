import type { DeliveryStatus, WebhookAttempt, WebhookDelivery } from '@/lib/contracts/webhooks';
import { webhookAttempts, webhookDeliveries } from '../../db/schema';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function deliveryDto(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    partner_id: row.partnerId,
    session_id: row.sessionId,
    event_type: row.eventType,
    event_key: row.eventKey,
    url: row.url,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    last_response_code: row.lastResponseCode,
    last_error: row.lastError,
    last_attempt_at: iso(row.lastAttemptAt),
    next_attempt_at: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    delivered_at: iso(row.deliveredAt),
    created_at: row.createdAt.toISOString(),
  };
}

export function attemptDto(row: AttemptRow): WebhookAttempt {
  return {
    attempt: row.attempt,
    at: row.at.toISOString(),
    url: row.url,
    request_headers: row.requestHeaders as Record<string, string>,
    response_code: row.responseCode,
    error: row.error,
    duration_ms: row.durationMs,
  };
}
