/**
 * The typed client for API tests: `api.call(contract, input)` against a test server, as one caller.
 *
 *   const api = testApi(server, provider);           // or testApi(server, 'admin'), testApi(server) for none
 *   const r = await api.call(getSessionStatus, { params: { ambient_session_id: id } });
 *   expect(r.status).toBe(200);
 *
 * The path, method, parameters, query and body come from the route's contract (lib/contracts/routes), as for
 * the app's client (lib/api/client.ts); unlike it, nothing is thrown on an error status: the reply carries the
 * status, the parsed body (`{code, message}` for an error) and the headers, so tests assert failures too.
 * A test that sends what no contract admits on purpose (bad JSON, a wrong content type, raw bytes, a hostile
 * path) uses a raw fetch with a `// raw fetch:` comment saying why (server/test/typed-client-only.test.ts).
 */
import { contractPath } from '@/lib/api/client';
import { getInfoList } from '@/lib/contracts/routes/info';
import type { BodyIn, ParamsIn, QueryIn, ResponseOf, RouteContract } from '@/lib/api/contract';
import type { z } from 'zod';
import { ADMIN_KEY } from './harness';

/** Who calls: a provider (its headers), plain headers, the admin key, or nobody. */
export type Caller = { headers: Record<string, string> } | Record<string, string> | 'admin' | undefined;

type QueryScalar = string | number | boolean | null | undefined;

/** What a call sends. The body is optional (a test may leave out a required one to see the 400). */
export type TestCallInput<C extends RouteContract> = (C extends { params: z.ZodType } ? { params: ParamsIn<C> } : { params?: undefined }) & {
  query?: C extends { query: z.ZodType } ? Partial<Record<keyof QueryIn<C>, QueryScalar>> : Record<string, QueryScalar>;
  body?: C extends { body: z.ZodType } ? BodyIn<C> : Record<string, never>;
  /** Bytes sent as they are, for a route that reads its body itself (an upload chunk). */
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  /** Anything else the request needs (a signal, a redirect mode). */
  init?: RequestInit;
};

export interface ApiReply<C extends RouteContract = RouteContract> {
  status: number;
  /** The parsed JSON answer, the text where it is not JSON, undefined when empty. */
  body: any;
  /** The answer typed by the contract's success schema (not validated; check `status` first). */
  data: ResponseOf<C>;
  text: string;
  headers: Headers;
}

export type CallArgs<C extends RouteContract> = {} extends TestCallInput<C> ? [TestCallInput<C>?] : [TestCallInput<C>];

export interface TestApi {
  readonly baseUrl: string;
  call<C extends RouteContract>(contract: C, ...input: CallArgs<C>): Promise<ApiReply<C>>;
  /** The same request, answered as the fetch Response itself (for a test that reads a stream, bytes or headers). */
  send<C extends RouteContract>(contract: C, ...input: CallArgs<C>): Promise<Response>;
  /** The same server as another caller. */
  as(who: Caller): TestApi;
}

/** The contract of one reference list, `/api/v1/info/<path>` (one contract per list: lib/contracts/routes/info.ts). */
export function infoRoute(path: string): RouteContract {
  const contract = getInfoList.find((c) => c.path === `/api/v1/info/${path}`);
  if (!contract) throw new Error(`no info list ${path}`);
  return contract;
}

/** A body the contract does not admit, sent on purpose to see it refused. */
export function unchecked(body: unknown): never {
  return body as never;
}

export function callerHeaders(who: Caller): Record<string, string> {
  if (who === undefined) return {};
  if (who === 'admin') return { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
  if ('headers' in who && typeof who.headers === 'object') return who.headers as Record<string, string>;
  return who as Record<string, string>;
}

/** The contract's path with its parameters and query (undefined and null members left out, '' kept). */
export function contractUrl(contract: RouteContract, input: { params?: unknown; query?: Record<string, QueryScalar> } = {}): string {
  const path = contractPath(contract, input.params as Record<string, unknown> | undefined);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined && v !== null) query.set(k, String(v));
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function readReply(res: Response): Promise<ApiReply> {
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, body, data: body as never, text, headers: res.headers };
}

export function testApi(server: { baseUrl: string } | string, who?: Caller): TestApi {
  const baseUrl = typeof server === 'string' ? server : server.baseUrl;
  const headers = callerHeaders(who);
  const send = (contract: RouteContract, input: TestCallInput<RouteContract> = {}) => {
    const sendsJson = input.body !== undefined;
    return fetch(`${baseUrl}${contractUrl(contract, input as { params?: unknown; query?: Record<string, QueryScalar> })}`, {
      ...input.init,
      method: contract.method,
      headers: { ...(sendsJson ? { 'content-type': 'application/json' } : {}), ...headers, ...input.headers },
      body: input.rawBody ?? (sendsJson ? JSON.stringify(input.body) : undefined),
    });
  };
  return {
    baseUrl,
    as: (other) => testApi(baseUrl, other),
    send,
    call: async (contract: RouteContract, input?: TestCallInput<RouteContract>) => readReply(await send(contract, input)),
  } as TestApi;
}
