import { badRequest, errorBody, isApiError } from '@/lib/errors';
import type { BodyOf, DeclaredStatus, DefaultStatus, HttpMethod, ParamsOf, QueryOf, ReplyBody, RouteContract } from '@/lib/api/contract';
import type { AppContext } from '../context';
import { readJsonBody } from './body';
import { findNul } from './hostile-input';
import { zodMessage } from './zod-message';
import { contractViolation, type CheckedBody } from './response-check';
import { authenticateServiceToken, type ServicePrincipal } from '../auth/authenticate-service';
import { authenticateAdmin, type AdminPrincipal } from '../auth/authenticate-admin';
import { checkRateLimit } from './rate-limit';
import { isUniqueViolation, pgErrorCode } from '../db/pg-error';

export type { AuthMode, HttpMethod, ResponseSpec } from '@/lib/api/contract';

interface AuthFor {
  none: undefined;
  service: ServicePrincipal;
  admin: AdminPrincipal;
}

/** What a handler gets: the request, validated against its contract, and the authenticated caller. */
export interface HandlerInput<C extends RouteContract = RouteContract> {
  app: AppContext;
  req: Request;
  requestId: string;
  params: ParamsOf<C>;
  query: QueryOf<C>;
  body: BodyOf<C>;
  auth: AuthFor[C['auth']];
}

/** Data sent with a status the handler chooses (201 Created, 202 Accepted…) instead of the route's. */
export class StatusReply<S extends number = number, B = undefined> {
  constructor(
    readonly status: S,
    /** Named apart from a Response's `body`, so a reply's type is not inferred from the Response a handler may also return. */
    readonly data?: B,
    readonly headers?: Record<string, string>,
  ) {}
}

/**
 * What a handler may return, typed from its contract: the data of the contract's own status (sent as JSON),
 * a StatusReply with a status the contract declares and that status's body, or a Response (a stream, bytes,
 * headers of its own), whose status and body the runner checks against the contract under CHECK_RESPONSES.
 */
export type HandlerResult<C extends RouteContract> =
  | ReplyBody<C, DefaultStatus<C>>
  | { [S in DeclaredStatus<C>]: StatusReply<S, ReplyBody<C, S>> }[DeclaredStatus<C>]
  | Response;

export type Handler<C extends RouteContract> = (input: HandlerInput<C>) => Promise<HandlerResult<C>> | HandlerResult<C>;

/** A handler with its contract's types erased, as the dispatcher holds it. */
type BoundHandler = (input: HandlerInput) => unknown;

/** A contract with its handler bound: what the dispatcher runs. */
export interface RouteDef {
  contract: RouteContract;
  handler: BoundHandler;
}

/** Binds the handler to its contract (declared in lib/contracts/routes/<area>.ts). */
export function bindRoute<const C extends RouteContract>(contract: C, handler: Handler<C>): RouteDef {
  return { contract, handler: handler as unknown as BoundHandler };
}

/** The serialised body of a json() response, so server/main.ts can write it without re-reading the stream. */
export const RAW_JSON = Symbol.for('ambient.raw-json');

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = body === undefined ? null : JSON.stringify(body);
  const res = new Response(text, {
    status,
    headers: body === undefined ? headers : { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
  if (text !== null) (res as Response & { [RAW_JSON]?: string })[RAW_JSON] = text;
  return res;
}

export function errorResponse(status: number, message: string, requestId?: string, headers: Record<string, string> = {}): Response {
  return json(errorBody(status, message), status, requestId ? { 'x-request-id': requestId, ...headers } : headers);
}

/**
 * A JSON reply not yet made into a Response: what json() would build, as its parts. The direct dispatcher
 * writes these to the socket as they are; building a Response (headers object, body stream) for a status
 * poll cost more than the poll's own work.
 */
export interface SerialisedReply {
  status: number;
  headers: Record<string, string>;
  /** Serialised body; null for none (no content-type then, as json() gives). */
  text: string | null;
}

function serialisedReply(body: unknown, status: number, headers: Record<string, string>): SerialisedReply {
  const text = body === undefined ? null : JSON.stringify(body);
  return { status, headers: text === null ? headers : { 'content-type': 'application/json; charset=utf-8', ...headers }, text };
}

export function toResponse(r: SerialisedReply): Response {
  const res = new Response(r.text, { status: r.status, headers: r.headers });
  if (r.text !== null) (res as Response & { [RAW_JSON]?: string })[RAW_JSON] = r.text;
  return res;
}

const rawError = (status: number, message: string, requestId: string, headers: Record<string, string> = {}): SerialisedReply =>
  serialisedReply(errorBody(status, message), status, { 'x-request-id': requestId, ...headers });

function requestIdOf(req: Request): string {
  const given = req.headers.get('x-request-id');
  return given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
}

export const UNPARSABLE_TARGET = 'invalid request: the request target cannot be parsed';

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw badRequest(UNPARSABLE_TARGET);
  }
}

function searchParamsObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!(k in out)) out[k] = v;
  return out;
}

function pgErrorStatus(err: unknown): number | undefined {
  const code = pgErrorCode(err);
  if (isUniqueViolation(err)) return 409;
  if (code === '22P02' || code === '22007' || code === '22008') return 400;
  return undefined;
}

/**
 * The request as a route reads it. Most routes read only the URL and a few headers; the direct dispatcher
 * answers those from node's own request and builds the web Request (headers object, abort signal, body
 * stream: a third of a status poll's own work) only when a handler or an admin resolver asks for it.
 */
export interface RequestSource {
  url: string;
  header(name: string): string | null;
  /** The web Request; throws an ApiError 400 when the request target cannot be represented as one. */
  request(): Request;
}

export function requestSource(req: Request): RequestSource {
  return { url: req.url, header: (name) => req.headers.get(name), request: () => req };
}

/**
 * Runs one request through validation, authentication, the handler and error mapping. `app` is the context
 * the process built (server/main.ts hands it to the dispatcher); until there is one the answer is 503.
 */
export async function runRoute(app: AppContext | undefined, route: RouteDef, req: Request, rawParams: Record<string, string | string[]>): Promise<Response> {
  const requestId = requestIdOf(req);
  const r = app ? await runRouteRaw(app, route, requestSource(req), rawParams, requestId) : rawError(503, 'service is starting', requestId);
  return r instanceof Response ? r : toResponse(r);
}

/**
 * runRoute for a caller that already settled the request id (server/main.ts checks the client's one with
 * the same pattern) and writes JSON replies itself: a handler's own Response is passed through.
 */
export async function runRouteRaw(app: AppContext, route: RouteDef, source: RequestSource, rawParams: Record<string, string | string[]>, requestId: string): Promise<Response | SerialisedReply> {
  const answer = await answerRoute(app, route, source, rawParams, requestId);
  return app.config.checkResponses ? checkAnswer(app, route.contract, answer, requestId) : answer;
}

/** The answer itself, or under CHECK_RESPONSES a 500 naming how it breaks the contract (response-check.ts). */
function checkAnswer(app: AppContext, def: RouteContract, answer: Response | SerialisedReply, requestId: string): Response | SerialisedReply {
  let body: CheckedBody;
  if (answer instanceof Response) {
    const raw = (answer as Response & { [RAW_JSON]?: string })[RAW_JSON];
    body = typeof raw === 'string' ? { json: raw } : answer.body ? 'unread' : 'none';
  } else {
    body = answer.text === null ? 'none' : { json: answer.text };
  }
  const violation = contractViolation(def, answer.status, body);
  if (!violation) return answer;
  if (answer instanceof Response) void answer.body?.cancel().catch(() => {});
  const message = `the answer breaks the contract of ${def.method} ${def.path}: ${violation}`;
  app.log.error({ requestId, route: def.path, status: answer.status }, message);
  return rawError(500, message, requestId);
}

async function answerRoute(app: AppContext, route: RouteDef, source: RequestSource, rawParams: Record<string, string | string[]>, requestId: string): Promise<Response | SerialisedReply> {
  const def = route.contract;
  try {
    if (def.rateLimit) await checkRateLimit(app, def.rateLimit, source.header('x-real-ip'));

    // Most requests have no query string; parsing the URL for one is skipped then.
    const query0 = source.url.includes('?') ? searchParamsObject(parseUrl(source.url)) : {};
    for (const [where, values] of [['path parameter', rawParams], ['query parameter', query0]] as const) {
      const nul = findNul(values);
      if (nul !== null) throw badRequest(`${where} ${nul}: must not contain NUL characters (\\u0000)`);
    }
    let params: unknown = rawParams;
    if (def.params) {
      const parsed = def.params.safeParse(rawParams);
      if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'path parameter'));
      params = parsed.data;
    }
    let query: unknown = {};
    if (def.query) {
      const parsed = def.query.safeParse(query0);
      if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'query parameter'));
      query = parsed.data;
    }

    let auth: unknown;
    if (def.auth === 'service') auth = await authenticateServiceToken(app, source.header('sdp_service_token'), source.header('sdp_provider_id'), { write: def.write === true });
    else if (def.auth === 'admin') auth = await authenticateAdmin(app, source.request());

    let body: unknown;
    if (def.body) {
      let raw = await readJsonBody(source.request(), app.config.bodyLimitBytes);
      if (raw === undefined && def.optionalBody) raw = {};
      if (raw === undefined) throw badRequest('request body is required');
      const parsed = def.body.safeParse(raw);
      if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'body'));
      body = parsed.data;
    }

    const input = { app, requestId, params, query, body, auth, get req() { return source.request(); } };
    const result = await route.handler(input as HandlerInput);
    if (result instanceof Response) {
      result.headers.set('x-request-id', requestId);
      return result;
    }
    if (result instanceof StatusReply) return serialisedReply(result.data, result.status, { 'x-request-id': requestId, ...result.headers });
    return serialisedReply(result, def.status ?? 200, { 'x-request-id': requestId });
  } catch (err) {
    if (isApiError(err)) return rawError(err.status, err.message, requestId, err.headers);
    const mapped = pgErrorStatus(err);
    if (mapped) return rawError(mapped, mapped === 409 ? 'conflict: the resource already exists' : 'invalid request', requestId);
    app.log.error({ err: { message: (err as Error)?.message, stack: (err as Error)?.stack }, requestId, route: def.path }, 'unhandled route error');
    return rawError(500, 'internal server error', requestId);
  }
}

export type NextRouteHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const ALL_METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Handlers for one path, by method: the defined methods, and a 405 error body for every other one. `appOf`
 * gives the context each request runs with (the dispatcher's own; for a route Next serves, the one main.ts
 * handed to Next: server/next-context.ts).
 */
export function methodHandlers(defs: RouteDef[], appOf: () => AppContext | undefined): Record<HttpMethod | 'HEAD' | 'OPTIONS', NextRouteHandler> {
  const byMethod = new Map(defs.map((d) => [d.contract.method, d]));
  const allow = [...byMethod.keys()].join(', ');
  const out = {} as Record<HttpMethod | 'HEAD' | 'OPTIONS', NextRouteHandler>;
  for (const method of [...ALL_METHODS, 'HEAD', 'OPTIONS'] as const) {
    const def = byMethod.get((method === 'HEAD' ? 'GET' : method) as HttpMethod);
    out[method] = def
      ? async (req, ctx) => runRoute(appOf(), def, req, (await ctx.params) ?? {})
      : async (req) => errorResponse(405, `method ${method} is not allowed on this path; allowed: ${allow}`, requestIdOf(req), { allow });
  }
  return out;
}
