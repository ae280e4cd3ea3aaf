import { defineContract } from '@/lib/api/contract';
import { SessionIdParams } from '@/lib/contracts/sessions';

export const streamSessionStatus = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/session/{ambient_session_id}/status/events',
  summary: 'Session status as Server-Sent Events',
  description:
    'An `event: status` with `{"status": …}` at once, then one for each change, from any process of the deployment; the stream ends after a terminal status (completed, failed, skipped, aborted). Same authentication and scoping as the status endpoint. Clients that lose the stream fall back to polling `…/status`. The server ends a stream that has not reached a terminal status after `SSE_MAX_LIFETIME_MS` (default 5 min), at shutdown, or when the provider is disabled, with a last `event: end` carrying `{"reason": "lifetime" | "shutdown" | "disabled", "message"}`; reconnect after `lifetime` and `shutdown`. Open streams are capped per provider, per partner and per process (429 naming the setting).',
  tags: ['Ambient sessions'],
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'text/event-stream of status events', contentType: 'text/event-stream' } },
  errors: ['not_found', 'too_many_requests', 'unavailable'],
});
