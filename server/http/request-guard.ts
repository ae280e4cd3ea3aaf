import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeWhenAnswered } from './close-after-linger';

/**
 * Checks every request gets before any handler (ours or Next's) sees it, in server/main.ts. They sit
 * under Next because Next buffers some bodies itself (Auth.js callbacks, route handlers reading
 * arrayBuffer()) with no limit of ours: 300 MB to POST /webhooks/notification took the process from
 * 0.7 to 1.5 GB (issue #12).
 */

function refuse(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ code: status, message });
  // The unread body stays on the socket, so the connection cannot be reused for another request.
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

/**
 * Refuses a path that is not valid percent-encoded UTF-8 ("%ED%A0%80", a lone surrogate) on its way to Next,
 * which decodes it itself and answers a bare 500. Routes of the direct dispatcher name the bad parameter instead.
 */
export function refuseUndecodablePath(pathname: string, res: ServerResponse): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    refuse(res, 400, 'path: not valid percent-encoded UTF-8');
    return true;
  }
}

/**
 * Turns an absolute-form request line (`GET http://other.example/x HTTP/1.1`, which only proxies need)
 * into origin form, so the client's choice of host cannot reach Next's URL handling and come back as a
 * redirect to that host. Answers 400 and returns false for a target that is neither form.
 */
export function normaliseRequestTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? '/';
  if (target.startsWith('/') && !target.startsWith('//')) return true;
  if (target === '*' && req.method === 'OPTIONS') return true;
  if (/^https?:\/\//i.test(target)) {
    try {
      const parsed = new URL(target);
      // A path starting with // would read as another host again (a protocol-relative redirect target).
      if (!parsed.pathname.startsWith('//')) {
        req.url = `${parsed.pathname}${parsed.search}`;
        return true;
      }
    } catch {
      /* falls through to the 400 */
    }
  }
  refuse(res, 400, 'request target must be a path starting with a single /');
  return false;
}

/**
 * Enforces BODY_LIMIT_BYTES on every route. A declared Content-Length over the limit is answered 413
 * before a byte of the body is read. A body without one (chunked) is counted as the HTTP parser hands it
 * over: past the limit the rest is dropped, 413 is sent if nothing was answered yet, and the connection
 * is closed, so no handler can buffer more than the limit. `countStreamed` is off for routes that read
 * through readJsonBody, which counts (and answers 413) itself.
 */
export function limitRequestBody(req: IncomingMessage, res: ServerResponse, limit: number, opts: { countStreamed: boolean }): boolean {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const size = Number(declared);
    if (Number.isFinite(size) && size > limit) {
      refuse(res, 413, `request body is larger than ${limit} bytes (BODY_LIMIT_BYTES)`);
      return false;
    }
    return true;
  }
  if (!opts.countStreamed || req.headers['transfer-encoding'] === undefined) return true;
  let seen = 0;
  let over = false;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null || over) return over ? false : push(chunk, encoding);
    seen += (chunk as Buffer).length;
    if (seen <= limit) return push(chunk, encoding);
    over = true;
    if (!res.headersSent) {
      closeWhenAnswered(res, req.socket);
      refuse(res, 413, `request body is larger than ${limit} bytes (BODY_LIMIT_BYTES)`);
    } else {
      req.socket.destroy();
    }
    return false;
  };
  return true;
}
