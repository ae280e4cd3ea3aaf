import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppContext, UpgradeHandler } from '../context';
import { recordWsConnection } from '../observability/metrics';

export type { UpgradeHandler };

export function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ code: status, message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : status === 401 ? 'Unauthorized' : 'Error'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function routeUpgrade(ctx: AppContext, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  const handler = ctx.services.wsRoutes.get(pathname);
  recordWsConnection(ctx, handler ? pathname : 'unknown', handler ? 'routed' : 'not_found');
  if (!handler) return rejectUpgrade(socket, 404, `no WebSocket endpoint ${pathname}`);
  handler(ctx, req, socket, head);
}
