import { isTerminal, type SessionStatus } from '@/lib/contracts/session-status';
import type { AppContext } from '../../context';
import type { Scope, Scoped } from '../scope/scope';
import { getStatusBus } from '../../status/status-bus';
import type { SseEndReason, SseHolder } from '../../status/sse-registry';
import { getOwnedSessionStatus } from './get-owned-session-status';

/** Comments keep idle proxies from closing a stream that is waiting for a long finalisation. */
const KEEPALIVE_MS = 15_000;
/** What a client waits before it reconnects after the server ended the stream (the SSE `retry` field). */
const RECONNECT_MS = 1_000;

const END_MESSAGE: Record<SseEndReason, string> = {
  lifetime: 'stream lifetime reached (SSE_MAX_LIFETIME_MS); reconnect to keep following',
  shutdown: 'server restarting; reconnect to keep following',
  disabled: 'provider is disabled',
};

/** The service token's provider and partner; the route takes service tokens only. */
function holderOf(scope: Scope): SseHolder {
  return scope.kind === 'provider' ? { providerId: scope.providerId, partnerId: scope.partnerId } : { providerId: '*', partnerId: '*' };
}

/**
 * Server-Sent Events for one session's status (DESIGN §12): `event: status` with `{"status": …}` at once,
 * then one per change, closing after a terminal state. Ownership is checked before the stream opens, so
 * another tenant's session is a plain 404. A stream takes a place under the SSE caps first (429 naming the
 * cap when full, before any database work), and the server ends it after SSE_MAX_LIFETIME_MS, at shutdown or
 * when its provider is disabled, with a last `event: end` naming why; clients reconnect after a non-terminal end.
 */
export async function streamSessionStatus(app: AppContext, auth: Scoped, sessionId: string): Promise<Response> {
  const sse = app.services.sse;
  let end: ((reason: SseEndReason) => void) | undefined;
  let endedEarly: SseEndReason | undefined;
  const release = sse.admit(holderOf(auth.scope), (reason) => (end ? end(reason) : (endedEarly = reason)));
  const bus = getStatusBus(app);
  const encoder = new TextEncoder();
  let last: SessionStatus | undefined;
  let queued: SessionStatus[] = [];
  let send: ((s: SessionStatus) => void) | undefined;
  let close: (() => void) | undefined;
  let unsubscribe: () => void = () => {};
  let current: SessionStatus;
  try {
    // Subscribe before reading the current status so a change between the two is not missed.
    unsubscribe = bus.subscribe(
      (change) => {
        if (change.sessionId !== sessionId) return;
        if (send) send(change.status);
        else queued.push(change.status);
      },
      () => {
        // Changes may have been missed: the client reconnects (or polls) and reads the status afresh.
        close?.();
      },
    );
    current = await getOwnedSessionStatus(app, auth, sessionId);
  } catch (err) {
    unsubscribe();
    release();
    throw err;
  }

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let done = false;
      const keepalive = setInterval(() => controller.enqueue(encoder.encode(': keepalive\n\n')), KEEPALIVE_MS);
      // Spread by up to a tenth, so streams opened together (after a restart) do not all reconnect together.
      const lifetime = sse.limits.maxLifetimeMs > 0 ? setTimeout(() => end!('lifetime'), sse.limits.maxLifetimeMs * (1 - Math.random() * 0.1)) : undefined;
      close = () => {
        if (done) return;
        done = true;
        clearInterval(keepalive);
        clearTimeout(lifetime);
        unsubscribe();
        release();
        controller.close();
      };
      end = (reason) => {
        if (done) return;
        const data = JSON.stringify({ reason, message: END_MESSAGE[reason] });
        controller.enqueue(encoder.encode(`retry: ${RECONNECT_MS}\nevent: end\ndata: ${data}\n\n`));
        close!();
      };
      send = (status) => {
        if (done || status === last) return;
        last = status;
        controller.enqueue(encoder.encode(`event: status\ndata: ${JSON.stringify({ status })}\n\n`));
        if (isTerminal(status)) close!();
      };
      send(current);
      const early = queued;
      queued = [];
      // Only changes heard after the read can be newer than it; an earlier one would step the status back.
      for (const s of early.slice(early.lastIndexOf(current) + 1)) send(s);
      if (endedEarly) end(endedEarly);
    },
    cancel() {
      close?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' },
  });
}
