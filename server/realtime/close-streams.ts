import { CLOSE } from '@/lib/contracts/stream-protocol';
import type { AppContext } from '../context';
import { getHub } from './hub';
import { SHUTDOWN_REASON } from './upgrade';

/** How long clients get to answer the close frame before their sockets are cut. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Shutdown, before the HTTP server waits for its connections: an open WebSocket would keep server.close()
 * waiting until the forced exit. Each stream first stores its audio and closes its recording, then tells
 * its client to reconnect (1001); the session stays open for that reconnect. A client that never answers
 * the close frame would hold its socket for ws's 30 s close timeout, so it is cut after a short grace.
 */
export async function closeStreams(app: AppContext): Promise<void> {
  await getHub(app).stopAll(CLOSE.GOING_AWAY, SHUTDOWN_REASON);
  const wss = app.services.wss;
  if (wss.clients.size === 0) return;
  const clients = [...wss.clients];
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(clients.map((ws) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve()))))),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS))),
  ]);
  clearTimeout(timer);
  for (const ws of wss.clients) ws.terminate();
}
