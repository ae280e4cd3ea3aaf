/**
 * The typed client: calls a route by its contract (lib/contracts/routes/<area>.ts), so the path, method,
 * parameters, query, body and answer types all come from the declaration the server binds its handler to.
 *
 *   const status = await api.call(getSessionStatus, { params: { ambient_session_id } }, { headers });
 *
 * Errors are thrown as ApiClientError with the server's `{code, message}` (lib/api/fetch.ts).
 */
import type { z } from 'zod';
import { apiFetch, type QueryValue } from '@/lib/api/fetch';
import type { BodyIn, ParamsIn, QueryIn, ResponseOf, RouteContract } from './contract';

/** What a call sends: path parameters and a body where the contract has them (required), a query where it has one. */
export type CallInput<C extends RouteContract> = (C extends { params: z.ZodType } ? { params: ParamsIn<C> } : { params?: undefined }) &
  (C extends { query: z.ZodType } ? { query?: Partial<Record<keyof QueryIn<C>, QueryValue>> } : { query?: undefined }) &
  (C extends { body: z.ZodType } ? { body: BodyIn<C> } : { body?: undefined });

export interface CallOptions<T = unknown> {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Absolute origin for calls from outside the browser (tests, scripts). */
  baseUrl?: string;
  /** Validates the answer with the contract's success schema (a mismatch throws ApiClientError 502). */
  validate?: boolean;
  /** Validates the answer with this schema instead, and types the result by it. */
  schema?: z.ZodType<T>;
}

/** The contract's path with its `{name}` parameters filled in, percent-encoded. */
export function contractPath(contract: RouteContract, params?: Record<string, unknown>): string {
  return contract.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${contract.method} ${contract.path}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

function successSchema(contract: RouteContract): z.ZodType | undefined {
  for (const status of [200, 201, 202]) if (contract.responses[status]) return contract.responses[status].schema;
  return undefined;
}

export function call<C extends RouteContract, T>(contract: C, input: CallInput<C>, opts: CallOptions<T> & { schema: z.ZodType<T> }): Promise<T>;
export function call<C extends RouteContract>(contract: C, input?: CallInput<C>, opts?: CallOptions): Promise<ResponseOf<C>>;
export async function call(contract: RouteContract, input: { params?: unknown; query?: unknown; body?: unknown } = {}, opts: CallOptions = {}): Promise<unknown> {
  // A body-taking route always gets a JSON body, so an all-optional body is sent as {} rather than nothing.
  const body = contract.body ? (input.body ?? {}) : undefined;
  return apiFetch(contractPath(contract, input.params as Record<string, unknown> | undefined), {
    method: contract.method,
    query: input.query as Record<string, QueryValue> | undefined,
    body,
    headers: opts.headers,
    signal: opts.signal,
    baseUrl: opts.baseUrl,
    schema: opts.schema ?? (opts.validate ? successSchema(contract) : undefined),
  });
}

export const api = { call };
