import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { AUTH_PROTOCOL, CLOSE, closeCodeForStatus, statusForCloseCode, type ServerFrame } from '@/lib/contracts/stream-protocol';
import { isApiError } from '@/lib/errors';
import type { AppContext } from '../context';
import { authenticateServiceToken, type ServicePrincipal } from '../auth/authenticate-service';
import { getHub } from './hub';
import { rejectUpgrade } from './router';
import { getStreamSlots, type StreamSlot } from './stream-slots';

export { AUTH_PROTOCOL };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UpgradeCredentials {
  token?: string;
  resourceId?: string;
  providerId?: string;
  offeredProtocols: string[];
}

/**
 * Browsers cannot set headers on a WebSocket, so they pass `AmbientAuth, <id>, <token>[, <provider_id>]`
 * as the subprotocol list; other clients may use headers `sdp_service_token`, `<idHeader>`, `sdp_provider_id`.
 */
export function readCredentials(req: IncomingMessage, idHeader: string): UpgradeCredentials {
  const header = (name: string): string | undefined => {
    const v = req.headers[name];
    return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
  };
  const offered = (header('sec-websocket-protocol') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (offered[0] === AUTH_PROTOCOL) {
    return { resourceId: offered[1], token: offered[2], providerId: offered[3] ?? header('sdp_provider_id'), offeredProtocols: offered };
  }
  return { token: header('sdp_service_token'), resourceId: header(idHeader), providerId: header('sdp_provider_id'), offeredProtocols: offered };
}

/** Close codes: 4000 + the HTTP status the same failure has on the REST API. */
export function closeCodeFor(err: unknown): { code: number; message: string } {
  if (isApiError(err) && [400, 401, 403, 404, 409, 413, 429].includes(err.status)) return { code: closeCodeForStatus(err.status), message: err.message };
  return { code: CLOSE.INTERNAL_ERROR, message: 'internal server error' };
}

/** A close reason is limited to 123 bytes of UTF-8. */
export function closeReason(message: string): string {
  let r = message;
  while (Buffer.byteLength(r) > 123) r = r.slice(0, -1);
  return r;
}

/** Built once at start by server/services.ts. */
export function createWebSocketServer(config: Pick<AppContext['config'], 'ws'>): WebSocketServer {
  // ws enforces this hard cap by closing with 1009; frames between the configured limit and the cap are
  // read and answered with an ERROR frame first, which is the clearer failure for a client.
  const hardCap = Math.max(config.ws.maxFrameBytes * 4, config.ws.maxFrameBytes + 64 * 1024);
  return new WebSocketServer({
    noServer: true,
    maxPayload: hardCap,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(AUTH_PROTOCOL) ? AUTH_PROTOCOL : false),
  });
}

export function webSocketServer(app: Pick<AppContext, 'services'>): WebSocketServer {
  return app.services.wss;
}

export interface AuthorisedUpgrade<T> {
  principal: ServicePrincipal;
  target: T;
  /** The stream's place under STREAMS_PER_PROVIDER / STREAMS_PER_PARTNER; the stream releases it when it ends. */
  slot: StreamSlot;
}

/** Lets `resolve` take the stream's slot before its side effects; taken after `resolve` when it did not. */
export type ClaimSlot = () => Promise<void>;

/**
 * Authenticates before the handshake completes, then completes it either way: a browser only sees a close
 * code (4401, 4403, 4404, 4409) on an open socket, never an HTTP status. The HTTP error body is used only
 * where no socket can be opened to carry a code: a request that is not a WebSocket handshake (ws answers
 * 400) and subprotocols offered without AmbientAuth and no header token (401), where completing the
 * handshake without echoing a protocol would fail on the client before any close code could arrive.
 */
export async function upgradeAuthorised<T>(
  app: AppContext,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  idHeader: string,
  resolve: (principal: ServicePrincipal, resourceId: string, claimSlot: ClaimSlot) => Promise<T>,
  onOpen: (ws: WebSocket, upgrade: AuthorisedUpgrade<T>) => void,
  /** The target was resolved but no stream opened on it (the client left mid-handshake, onOpen threw). */
  onAbandon?: (target: T) => void,
): Promise<void> {
  socket.on('error', () => {});
  const creds = readCredentials(req, idHeader);
  if (creds.offeredProtocols.length && !creds.offeredProtocols.includes(AUTH_PROTOCOL) && !creds.token) {
    return rejectUpgrade(socket, 401, `subprotocol list must start with ${AUTH_PROTOCOL}, <${idHeader}>, <service_token>`);
  }
  let result: AuthorisedUpgrade<T> | null = null;
  let failure: { code: number; message: string } | null = null;
  let slot: StreamSlot | null = null;
  try {
    if (getHub(app).stopping) throw new ShuttingDown();
    const principal = await authenticateServiceToken(app, creds.token, creds.providerId, { write: true });
    const claimSlot: ClaimSlot = async () => {
      slot ??= await getStreamSlots(app).acquire(principal);
    };
    if (!creds.resourceId) failure = { code: CLOSE.NOT_FOUND, message: `${idHeader} is required` };
    else if (!UUID.test(creds.resourceId)) failure = { code: CLOSE.NOT_FOUND, message: `${idHeader} must be a UUID` };
    else {
      const target = await resolve(principal, creds.resourceId.toLowerCase(), claimSlot);
      await claimSlot();
      result = { principal, target, slot: slot! };
    }
  } catch (err) {
    failure = err instanceof ShuttingDown ? { code: CLOSE.GOING_AWAY, message: SHUTDOWN_REASON } : closeCodeFor(err);
    if (failure.code === CLOSE.INTERNAL_ERROR) app.log.error({ err: (err as Error).message, path: req.url }, 'websocket upgrade failed');
  }
  // Every way out without a stream gives the slot back: a refusal, a client gone mid-check, a handshake ws drops.
  const giveBack = () => (slot as StreamSlot | null)?.release();
  const abandon = () => {
    const r = result as AuthorisedUpgrade<T> | null;
    result = null;
    if (r) onAbandon?.(r.target);
  };
  if (failure) void giveBack();
  if (socket.destroyed) {
    abandon();
    return giveBack();
  }
  let handedOver = false;
  socket.once('close', () => {
    if (handedOver) return;
    abandon();
    void giveBack();
  });
  webSocketServer(app).handleUpgrade(req, socket, head, (ws) => {
    handedOver = true;
    const path = (req.url ?? '').split('?')[0];
    if (failure || !result) {
      void giveBack();
      const f = failure ?? { code: CLOSE.INTERNAL_ERROR, message: 'internal server error' };
      // Operators (and a reconnecting client's support ticket) need to see why a stream was refused.
      app.log.info({ path, code: f.code, reason: f.message }, 'websocket stream refused');
      ws.send(JSON.stringify({ type: 'ERROR', code: statusForCloseCode(f.code), message: f.message } satisfies ServerFrame));
      ws.close(f.code, closeReason(f.message));
      return;
    }
    app.log.info({ path, resourceId: creds.resourceId }, 'websocket stream opened');
    ws.once('close', (code) => app.log.info({ path, resourceId: creds.resourceId, code }, 'websocket stream closed'));
    try {
      onOpen(ws, result);
    } catch (err) {
      abandon();
      void giveBack();
      app.log.error({ err: (err as Error).message, path: req.url }, 'websocket stream failed to start');
      ws.close(CLOSE.INTERNAL_ERROR, 'internal server error');
    }
  });
}

export const SHUTDOWN_REASON = 'server restarting; reconnect to continue';

class ShuttingDown extends Error {}
