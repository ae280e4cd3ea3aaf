import { z } from 'zod';
import { ApiError, isApiError, type ErrorBody } from '@/lib/errors';
import { getAppContext, type AppContext } from '../context';
import { readJsonBody } from './body';
import { findNul } from './hostile-input';
import { zodMessage } from './zod-message';
import { authenticateService, type ServicePrincipal } from '../auth/authenticate-service';
import { authenticateAdmin, type AdminPrincipal } from '../auth/authenticate-admin';
import { checkRateLimit } from './rate-limit';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AuthMode = 'none' | 'service' | 'admin';

type AnyObject = z.ZodType<Record<string, unknown>>;

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

interface AuthFor {
  none: undefined;
  service: ServicePrincipal;
  admin: AdminPrincipal;
}

export interface HandlerInput<A extends AuthMode, P, Q, B> {
  app: AppContext;
  req: Request;
  requestId: string;
  params: P;
  query: Q;
  body: B;
  auth: AuthFor[A];
}

/** What a handler may return: data (sent as JSON with the route's status), an explicit reply, or a Response. */
export type HandlerResult = unknown | Reply | Response;

export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers?: Record<string, string>,
  ) {}
}

export interface RouteDef<A extends AuthMode = any, P = any, Q = any, B = any> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. /api/v1/ambient/session/{ambient_session_id}/status. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  /** Writes are refused for READONLY partners. */
  write?: boolean;
  deprecated?: boolean;
  /** A bucket name turns on per-client rate limiting for this route. */
  rateLimit?: string;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** An absent body is read as `{}` (for bodies whose every member is optional). */
  optionalBody?: boolean;
  status?: number;
  responses: Record<number, ResponseSpec>;
  handler: (input: HandlerInput<A, P, Q, B>) => Promise<HandlerResult> | HandlerResult;
}

export function defineRoute<A extends AuthMode, P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  def: RouteDef<A, P, Q, B>,
): RouteDef<A, P, Q, B> {
  return def;
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
  const body: ErrorBody = { code: status, message };
  return json(body, status, requestId ? { 'x-request-id': requestId, ...headers } : headers);
}

function requestIdOf(req: Request): string {
  const given = req.headers.get('x-request-id');
  return given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
}

function searchParamsObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!(k in out)) out[k] = v;
  return out;
}

function pgErrorStatus(err: unknown): number | undefined {
  const code = (err as { code?: unknown })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  if (code === '23505') return 409;
  if (code === '22P02' || code === '22007' || code === '22008') return 400;
  return undefined;
}

/** Runs one request through validation, authentication, the handler and error mapping. */
export async function runRoute(def: RouteDef, req: Request, rawParams: Record<string, string | string[]>): Promise<Response> {
  const requestId = requestIdOf(req);
  let app: AppContext;
  try {
    app = getAppContext();
  } catch {
    return errorResponse(503, 'service is starting', requestId);
  }
  try {
    const url = new URL(req.url);
    if (def.rateLimit) checkRateLimit(app, def.rateLimit, req);

    const query0 = searchParamsObject(url);
    for (const [where, values] of [['path parameter', rawParams], ['query parameter', query0]] as const) {
      const nul = findNul(values);
      if (nul !== null) throw new ApiError(400, `${where} ${nul}: must not contain NUL characters (\\u0000)`);
    }
    let params: unknown = rawParams;
    if (def.params) {
      const parsed = def.params.safeParse(rawParams);
      if (!parsed.success) throw new ApiError(400, zodMessage(parsed.error, 'path parameter'));
      params = parsed.data;
    }
    let query: unknown = {};
    if (def.query) {
      const parsed = def.query.safeParse(query0);
      if (!parsed.success) throw new ApiError(400, zodMessage(parsed.error, 'query parameter'));
      query = parsed.data;
    }

    let auth: unknown;
    if (def.auth === 'service') auth = await authenticateService(app, req, { write: def.write === true });
    else if (def.auth === 'admin') auth = await authenticateAdmin(app, req);

    let body: unknown;
    if (def.body) {
      let raw = await readJsonBody(req, app.config.bodyLimitBytes);
      if (raw === undefined && def.optionalBody) raw = {};
      if (raw === undefined) throw new ApiError(400, 'request body is required');
      const parsed = def.body.safeParse(raw);
      if (!parsed.success) throw new ApiError(400, zodMessage(parsed.error, 'body'));
      body = parsed.data;
    }

    const result = await def.handler({ app, req, requestId, params, query, body, auth } as HandlerInput<AuthMode, any, any, any>);
    if (result instanceof Response) {
      result.headers.set('x-request-id', requestId);
      return result;
    }
    if (result instanceof Reply) return json(result.body, result.status, { 'x-request-id': requestId, ...result.headers });
    return json(result, def.status ?? 200, { 'x-request-id': requestId });
  } catch (err) {
    if (isApiError(err)) return errorResponse(err.status, err.message, requestId, err.headers);
    const mapped = pgErrorStatus(err);
    if (mapped) return errorResponse(mapped, mapped === 409 ? 'conflict: the resource already exists' : 'invalid request', requestId);
    app.log.error({ err: { message: (err as Error)?.message, stack: (err as Error)?.stack }, requestId, route: def.path }, 'unhandled route error');
    return errorResponse(500, 'internal server error', requestId);
  }
}

export type NextRouteHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const ALL_METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Next exports for one path: the defined methods, and a 405 error body for every other one. */
export function methodHandlers(defs: RouteDef[]): Record<HttpMethod | 'HEAD' | 'OPTIONS', NextRouteHandler> {
  const byMethod = new Map(defs.map((d) => [d.method, d]));
  const allow = [...byMethod.keys()].join(', ');
  const out = {} as Record<HttpMethod | 'HEAD' | 'OPTIONS', NextRouteHandler>;
  for (const method of [...ALL_METHODS, 'HEAD', 'OPTIONS'] as const) {
    const def = byMethod.get((method === 'HEAD' ? 'GET' : method) as HttpMethod);
    out[method] = def
      ? async (req, ctx) => runRoute(def, req, (await ctx.params) ?? {})
      : async (req) => errorResponse(405, `method ${method} is not allowed on this path; allowed: ${allow}`, requestIdOf(req), { allow });
  }
  return out;
}
