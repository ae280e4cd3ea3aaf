/**
 * Route contracts: what one endpoint accepts and answers, declared once in lib/contracts/routes/<area>.ts
 * and read by three parties: the server binds a handler to it (server/api/<area>.ts, `bindRoute`), the
 * OpenAPI document is built from it (server/http/openapi.ts), and the typed client calls it
 * (lib/api/client.ts). No server code is imported here, so the browser bundle can use contracts too.
 */
import type { z } from 'zod';
import { ERRORS, type ErrorName } from '@/lib/errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** none: public (or authorised by other means, e.g. a signed URL); service: service token; admin: admin key or console session. */
export type AuthMode = 'none' | 'service' | 'admin';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}


export interface RouteContract {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. /api/v1/ambient/session/{ambient_session_id}/status. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthMode;
  /** Writes are refused for READONLY partners (403). */
  write?: boolean;
  deprecated?: boolean;
  /** A bucket name turns on per-client rate limiting for this route. */
  rateLimit?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A body the handler reads as bytes itself (an uploaded file's chunk), documented with this media type. */
  rawBody?: { contentType: string; description: string };
  /** An absent body is read as `{}` (for bodies whose every member is optional). */
  optionalBody?: boolean;
  /** The status of a plain data answer (200 unless given). */
  status?: number;
  /**
   * Responses by status: the successes, and any error status whose body is not the usual `{code, message}`.
   * `{code, message}` errors are not listed here: see `errors`.
   */
  responses: Record<number, ResponseSpec>;
  /**
   * Errors this route answers beyond those its auth mode and inputs imply (`contractErrors` adds 400 for
   * any input, 401 for auth, 403 for writes, 413 for a body, 429 for a rate limit).
   */
  errors?: ErrorName[];
  /**
   * 'next' for the one kind of route the node dispatcher cannot serve: one that needs Next's request
   * scope (next-auth's session cookie). It is then bound in a hand-written app/ route file.
   */
  servedBy?: 'next';
}

/** Declares a contract; the identity function, there to check the shape and keep the literal types. */
export function defineContract<const C extends RouteContract>(contract: C): C {
  return contract;
}

/** Every error a route can answer: those implied by its auth mode and inputs, and those it lists. */
export function contractErrors(c: RouteContract): ErrorName[] {
  const names = new Set<ErrorName>(c.errors ?? []);
  if (c.params || c.query || c.body) names.add('invalid_request');
  if (c.auth !== 'none') names.add('invalid_token');
  // Any service-token route answers 403 for a disabled provider (authenticate-service.ts); a write also for READONLY.
  if (c.auth === 'service') names.add('forbidden');
  if (c.body) names.add('payload_too_large');
  if (c.rateLimit) names.add('too_many_requests');
  return [...names].sort((a, b) => ERRORS[a].status - ERRORS[b].status);
}

type Output<S> = S extends z.ZodType ? z.output<S> : never;
type Input<S> = S extends z.ZodType ? z.input<S> : never;

/** What a handler receives, validated (zod output types). */
export type ParamsOf<C> = C extends { params: infer S extends z.ZodType } ? z.output<S> : Record<string, never>;
export type QueryOf<C> = C extends { query: infer S extends z.ZodType } ? z.output<S> : Record<string, never>;
export type BodyOf<C> = C extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;

/** What a caller sends (zod input types). */
export type ParamsIn<C> = C extends { params: infer S extends z.ZodType } ? Input<S> : undefined;
export type QueryIn<C> = C extends { query: infer S extends z.ZodType } ? Input<S> : undefined;
export type BodyIn<C> = C extends { body: infer S extends z.ZodType } ? Input<S> : undefined;

/** The answer of the contract's first success response that has a schema (undefined for a bodiless one). */
export type ResponseOf<C extends RouteContract> = C['responses'] extends { 200: { schema: infer S } }
  ? Output<S>
  : C['responses'] extends { 201: { schema: infer S } }
    ? Output<S>
    : C['responses'] extends { 202: { schema: infer S } }
      ? Output<S>
      : undefined;

/** The statuses the contract's `responses` declare. */
export type DeclaredStatus<C extends RouteContract> = keyof C['responses'] & number;

/** The status of a plain data answer: the contract's `status`, else 200. */
export type DefaultStatus<C extends RouteContract> = C extends { status: infer S extends number } ? S : 200;

/**
 * What a handler gives as the body of one declared status: what that response's schema accepts (zod input
 * type; the route runner serialises it), or undefined for a response without a schema. `never` for a status
 * the contract does not declare, so a reply with it does not compile.
 */
export type ReplyBody<C extends RouteContract, S extends number> = S extends DeclaredStatus<C>
  ? C['responses'][S] extends { schema: infer Z extends z.ZodType }
    ? Frozen<Input<Z>>
    : undefined
  : never;

/** The same shape with every array and member read-only: a handler may answer with constant data. */
type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

