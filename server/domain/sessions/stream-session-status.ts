import { isTerminal, type SessionStatus } from '@/lib/contracts/session-status';
import type { AppContext } from '../../context';
import type { Scoped } from '../scope/scope';
import { getStatusBus } from '../../status/status-bus';
import { getOwnedSessionStatus } from './get-owned-session-status';

/** Comments keep idle proxies from closing a stream that is waiting for a long finalisation. */
const KEEPALIVE_MS = 15_000;

/**
 * Server-Sent Events for one session's status (DESIGN §12): `event: status` with `{"status": …}` at once,
 * then one per change, closing after a terminal state. Ownership is checked before the stream opens, so
 * another tenant's session is a plain 404.
 */
export async function streamSessionStatus(
  app: AppContext,
  auth: Scoped,
  sessionId: string,
  signal: AbortSignal,
): Promise<Response> {
  const bus = getStatusBus(app);
  const encoder = new TextEncoder();
  let last: SessionStatus | undefined;
  let queued: SessionStatus[] = [];
  let send: ((s: SessionStatus) => void) | undefined;
  // Subscribe before reading the current status so a change between the two is not missed.
  const unsubscribe = bus.subscribe(
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
  let close: (() => void) | undefined;
  let current: SessionStatus;
  try {
    current = await getOwnedSessionStatus(app, auth, sessionId);
  } catch (err) {
    unsubscribe();
    throw err;
  }

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let done = false;
      const timer = setInterval(() => controller.enqueue(encoder.encode(': keepalive\n\n')), KEEPALIVE_MS);
      close = () => {
        if (done) return;
        done = true;
        clearInterval(timer);
        unsubscribe();
        signal.removeEventListener('abort', close!);
        controller.close();
      };
      send = (status) => {
        if (done || status === last) return;
        last = status;
        controller.enqueue(encoder.encode(`event: status\ndata: ${JSON.stringify({ status })}\n\n`));
        if (isTerminal(status)) close!();
      };
      signal.addEventListener('abort', close);
      send(current);
      const early = queued;
      queued = [];
      // Only changes heard after the read can be newer than it; an earlier one would step the status back.
      for (const s of early.slice(early.lastIndexOf(current) + 1)) send(s);
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
