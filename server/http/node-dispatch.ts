import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpMethod } from '@/lib/api/contract';
import { badRequest } from '@/lib/errors';
import type { AppContext } from '../context';
import { errorResponse, methodHandlers, RAW_JSON, runRouteRaw, type NextRouteHandler, type SerialisedReply, type RequestSource, type RouteDef, UNPARSABLE_TARGET } from './route';
import { SECURITY_HEADERS } from './security-headers';
import { closeWhenAnswered } from './close-after-linger';

/**
 * The one dispatcher for the API, in `npm start` and `npm run dev` alike: it answers every route bound in
 * server/api straight from its contract and handler, skipping Next's router and its per-request rendering
 * machinery (the largest cost of a status poll). Only contracts marked servedBy 'next' are left to Next
 * (app/api/app/token, which needs next-auth's request scope). Anything this matcher does not recognise
 * exactly (unknown paths, trailing slashes, empty segments) falls through to Next, whose catch-all
 * app/api/[...path] answers unknown /api paths with the same {code, message} 404.
 */
export interface DirectRoute {
  /** The OpenAPI path template, e.g. /api/v1/ambient/session/{ambient_session_id}/status: a low-cardinality metrics label. */
  template: string;
  handlers: Record<HttpMethod | 'HEAD' | 'OPTIONS', NextRouteHandler>;
  /** The bound route of each defined method: run without the Response round trip of `handlers`. */
  defs: Partial<Record<HttpMethod, RouteDef>>;
  params: Record<string, string>;
  /** A path parameter whose percent-encoding is not valid UTF-8: answered 400 rather than handed to Next. */
  badParam?: string;
}

interface Node {
  literal: Map<string, Node>;
  param?: { name: string; node: Node };
  route?: { template: string; handlers: DirectRoute['handlers']; defs: DirectRoute['defs'] };
}

export class RouteMatcher {
  private readonly root: Node = { literal: new Map() };

  constructor(app: AppContext, routes: RouteDef[]) {
    const byPath = new Map<string, RouteDef[]>();
    for (const r of routes) {
      if (r.contract.servedBy === 'next') continue;
      byPath.set(r.contract.path, [...(byPath.get(r.contract.path) ?? []), r]);
    }
    for (const [template, defs] of byPath) {
      let node = this.root;
      for (const seg of template.split('/').filter(Boolean)) {
        const m = /^\{(.+)\}$/.exec(seg);
        if (m) {
          node.param ??= { name: m[1]!, node: { literal: new Map() } };
          if (node.param.name !== m[1]) throw new Error(`conflicting path parameters at ${template}`);
          node = node.param.node;
        } else {
          let next = node.literal.get(seg);
          if (!next) node.literal.set(seg, (next = { literal: new Map() }));
          node = next;
        }
      }
      node.route = { template, handlers: methodHandlers(defs, () => app), defs: Object.fromEntries(defs.map((d) => [d.contract.method, d])) };
    }
  }

  /** Literal segments win over parameters (as in Next: /session/create beats /session/{id}). */
  match(pathname: string): DirectRoute | null {
    if (pathname.endsWith('/') || pathname.includes('//')) return null;
    const segs = pathname.split('/').filter(Boolean);
    const params: Record<string, string> = {};
    let badParam: string | undefined;
    const walk = (node: Node, i: number): Node | null => {
      if (i === segs.length) return node.route ? node : null;
      const seg = segs[i]!;
      const lit = node.literal.get(seg);
      if (lit) {
        const found = walk(lit, i + 1);
        if (found) return found;
      }
      if (node.param) {
        let value: string;
        try {
          value = decodeURIComponent(seg);
        } catch {
          badParam ??= node.param.name;
          value = seg;
        }
        params[node.param.name] = value;
        const found = walk(node.param.node, i + 1);
        if (found) return found;
        delete params[node.param.name];
      }
      return null;
    };
    const node = walk(this.root, 0);
    return node?.route ? { template: node.route.template, handlers: node.route.handlers, defs: node.route.defs, params, badParam } : null;
  }
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

const BODY_ITERATOR = Symbol('body-iterator');
type BodyHolder = IncomingMessage & { [BODY_ITERATOR]?: AsyncIterator<Buffer> };

/**
 * The request body as a web stream that touches the socket only when a handler reads it (high-water mark
 * 0, so nothing is pulled ahead). Whatever a handler leaves unread is drained by releaseBody once the
 * response is written: a body parked half-read would stall the next request on the keep-alive connection.
 */
function lazyBody(req: BodyHolder): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        req[BODY_ITERATOR] ??= req.iterator({ destroyOnReturn: false })[Symbol.asyncIterator]();
        const { done, value } = await req[BODY_ITERATOR].next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      cancel: () => releaseBody(req),
    },
    { highWaterMark: 0 },
  );
}

/**
 * Stops reading the body. What is left unread is never drained: the answer closes the connection instead
 * (dispatchDirect), or a client could stream without end and keep the server reading (issue 26: 11.5 GB
 * read and discarded in 15 s after a 413).
 */
async function releaseBody(req: BodyHolder): Promise<void> {
  const it = req[BODY_ITERATOR];
  req[BODY_ITERATOR] = undefined;
  await it?.return?.().catch(() => {});
}

function toWebRequest(req: IncomingMessage, url: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    // HTTP/2 pseudo headers and hop-by-hop framing are not part of a Fetch request.
    if (name.startsWith(':')) continue;
    try {
      headers.append(name, req.rawHeaders[i + 1]!);
    } catch {
      /* a header value Fetch refuses (control characters) is dropped, as Next drops it */
    }
  }
  // main.ts rewrites these two before dispatch; rawHeaders still hold what the client sent.
  for (const name of ['x-request-id', 'x-real-ip']) {
    const v = req.headers[name];
    if (typeof v === 'string') headers.set(name, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    body: hasBody ? lazyBody(req) : undefined,
    // @ts-expect-error: undici needs duplex for a streamed request body; lib.dom does not know it.
    duplex: hasBody ? 'half' : undefined,
  });
}

/** node's request as a route reads it; the web Request is built on first use, once. */
function nodeRequestSource(req: IncomingMessage, url: string): RequestSource {
  let request: Request | undefined;
  return {
    url,
    header(name) {
      const v = req.headers[name];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
    request() {
      if (request) return request;
      try {
        return (request = toWebRequest(req, url));
      } catch {
        throw badRequest(UNPARSABLE_TARGET);
      }
    },
  };
}

/** Header names folded to lower case and repeated ones joined, as a Response's Headers would give them. */
function writeSerialisedReply(res: ServerResponse, r: SerialisedReply, head: boolean, close: boolean): void {
  const merged = new Map<string, string>();
  for (const [k, v] of Object.entries(r.headers)) {
    const name = k.toLowerCase();
    const had = merged.get(name);
    merged.set(name, had === undefined ? v : `${had}, ${v}`);
  }
  const flat: string[] = [];
  for (const { key, value } of SECURITY_HEADERS) flat.push(key, value);
  for (const [k, v] of merged) flat.push(k, v);
  if (close) flat.push('connection', 'close');
  if (r.text === null) {
    res.writeHead(r.status, flat);
    res.end();
    return;
  }
  flat.push('content-length', String(Buffer.byteLength(r.text)));
  res.writeHead(r.status, flat);
  res.end(head ? undefined : r.text);
}

async function writeWebResponse(res: ServerResponse, response: Response | SerialisedReply, head: boolean, close = false): Promise<void> {
  if (!(response instanceof Response)) return writeSerialisedReply(res, response, head, close);
  const flat: string[] = [];
  for (const { key, value } of SECURITY_HEADERS) flat.push(key, value);
  for (const [k, v] of response.headers) if (k !== 'set-cookie' && !(close && k === 'connection')) flat.push(k, v);
  for (const c of response.headers.getSetCookie()) flat.push('set-cookie', c);
  if (close) flat.push('connection', 'close');
  const raw = (response as Response & { [RAW_JSON]?: string })[RAW_JSON];
  if (typeof raw === 'string') {
    // The common case (every json() reply): the text is at hand, no need to drain the web stream.
    flat.push('content-length', String(Buffer.byteLength(raw)));
    res.writeHead(response.status, flat);
    res.end(head ? undefined : raw);
    return;
  }
  res.writeHead(response.status, flat);
  if (!response.body || head) {
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await drainOrClose(res);
    if (res.destroyed) return;
  }
  res.end();
}

/**
 * Waits until the socket takes more or is gone. Whichever fires removes the other listener: a long body
 * (audio 206) waits many times, and left-behind close listeners pile up on the response.
 */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/**
 * Dispatches a request the matcher recognised. Resolves once the response is written; never rejects
 * (a failure becomes the same 500 error body the route builder would give).
 */
export async function dispatchDirect(app: AppContext, route: DirectRoute, req: IncomingMessage, res: ServerResponse, url: string, requestId: string): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  try {
    let response: Response | SerialisedReply;
    if (!METHODS.has(method)) {
      response = errorResponse(405, `method ${method} is not allowed on this path`, requestId);
    } else if (route.badParam) {
      response = errorResponse(400, `${route.badParam}: path parameter is not valid percent-encoded UTF-8`, requestId);
    } else {
      const def = route.defs[(method === 'HEAD' ? 'GET' : method) as HttpMethod];
      // main.ts settled the request id (the client's when it passes the same check runRoute makes).
      const source = nodeRequestSource(req, url);
      if (def) response = await runRouteRaw(app, def, source, route.params, requestId);
      else {
        let request: Request | null = null;
        try {
          request = source.request();
        } catch {
          /* a request target Fetch cannot represent */
        }
        response = request
          ? await route.handlers[method as HttpMethod | 'HEAD' | 'OPTIONS'](request, { params: Promise.resolve(route.params) })
          : errorResponse(400, UNPARSABLE_TARGET, requestId);
      }
    }
    // A body the handler left unread (a 413 stopped at the limit, or the route never wanted it) is not
    // drained: the answer says Connection: close and the socket is closed once it is written (after a
    // bounded linger, so the client can read the answer), as the request guard does for Next's routes.
    await releaseBody(req);
    const close = !req.complete;
    if (close) closeWhenAnswered(res, req.socket);
    await writeWebResponse(res, response, method === 'HEAD', close);
  } catch {
    if (!res.headersSent) {
      const close = !req.complete;
      if (close) closeWhenAnswered(res, req.socket);
      await writeWebResponse(res, errorResponse(500, 'internal server error', requestId), false, close).catch(() => res.destroy());
    } else {
      res.destroy();
    }
  }
}
