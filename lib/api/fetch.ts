import type { z } from 'zod';

/** The `{code, message}` error body of every API failure, thrown by apiFetch. */
export class ApiClientError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'ApiClientError';
    this.code = code;
  }
}

export function isApiClientError(err: unknown): err is ApiClientError {
  return err instanceof ApiClientError || (typeof err === 'object' && err !== null && (err as { name?: string }).name === 'ApiClientError');
}

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiFetchOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Appended to the URL; null, undefined and '' values are left out. */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** When given, the response body is validated with it. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** Absolute origin for calls from outside the browser (tests, scripts). */
  baseUrl?: string;
}

export function withQuery(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/**
 * fetch for this service's JSON API. Same-origin cookies go along, so the admin console's signed-in
 * session authorises admin calls. Non-2xx answers throw ApiClientError with the server's code and message.
 */
export async function apiFetch<T = unknown>(path: string, opts: ApiFetchOptions<T> = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${opts.baseUrl ?? ''}${withQuery(path, opts.query)}`, {
      method: opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'),
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiClientError(0, 'the service could not be reached; check the network connection');
  }
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!res.ok) {
    const body = data as { code?: unknown; message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : `request failed with status ${res.status}`;
    throw new ApiClientError(typeof body?.code === 'number' ? body.code : res.status, message);
  }
  if (opts.schema) {
    const parsed = opts.schema.safeParse(data);
    if (!parsed.success) throw new ApiClientError(502, `unexpected response from ${path}`);
    return parsed.data;
  }
  return data as T;
}

/** Message to show a user for any thrown value. */
export function errorMessage(err: unknown): string {
  if (isApiClientError(err)) return err.message;
  if (err instanceof Error) return err.message;
  return 'something went wrong';
}
