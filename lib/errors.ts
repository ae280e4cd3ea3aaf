/**
 * Errors as data: every error the API answers, by name. The body is always `{code, message}` with `code`
 * equal to the HTTP status (the spec's rule); `message` is the default when a handler gives none, and
 * `when` is the OpenAPI description. Route contracts list error names (lib/api/contract.ts), handlers
 * throw `apiError(name, message)` or the helpers below, and server/http/openapi.ts documents the same map.
 */
export const ERRORS = {
  invalid_request: { status: 400, message: 'invalid request', when: 'a body, query or path field failed validation' },
  invalid_token: { status: 401, message: 'invalid token', when: 'missing, expired or unknown credentials' },
  forbidden: { status: 403, message: 'forbidden', when: 'the caller may not do this' },
  not_found: { status: 404, message: 'not found', when: 'no such resource in the caller\'s scope' },
  method_not_allowed: { status: 405, message: 'method not allowed', when: 'the path does not accept this method' },
  request_timeout: { status: 408, message: 'request timeout', when: 'the request was not received in time' },
  conflict: { status: 409, message: 'conflict', when: 'the resource is in a state that does not allow this' },
  payload_too_large: { status: 413, message: 'payload too large', when: 'the body is larger than BODY_LIMIT_BYTES' },
  unsupported_media_type: { status: 415, message: 'unsupported media type', when: 'the body is not of an accepted type' },
  range_not_satisfiable: { status: 416, message: 'range not satisfiable', when: 'the Range header lies outside the content' },
  unprocessable_content: { status: 422, message: 'unprocessable content', when: 'the body is of an accepted type but cannot be used (a corrupt file)' },
  too_many_requests: { status: 429, message: 'too many requests', when: 'over the rate limit; see Retry-After' },
  headers_too_large: { status: 431, message: 'request headers are too large', when: 'the request headers exceed the server limit' },
  internal: { status: 500, message: 'internal server error', when: 'an unexpected failure' },
  unavailable: { status: 503, message: 'service unavailable', when: 'the service is starting or a dependency is down' },
} as const satisfies Record<string, { status: number; message: string; when: string }>;

export type ErrorName = keyof typeof ERRORS;

/** Default message by status, for errors created from a bare status. */
export const ERROR_MESSAGES: Record<number, string> = Object.fromEntries(Object.values(ERRORS).map((e) => [e.status, e.message]));

export interface ErrorBody {
  code: number;
  message: string;
}

export class ApiError extends Error {
  /** Brand instead of instanceof: Next bundles its own copy of this module beside the custom server's. */
  readonly isApiError = true;
  constructor(
    readonly status: number,
    message?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? ERROR_MESSAGES[status] ?? 'error');
  }
  toBody(): ErrorBody {
    return { code: this.status, message: this.message };
  }
}

export function isApiError(err: unknown): err is ApiError {
  return typeof err === 'object' && err !== null && (err as ApiError).isApiError === true;
}

/** The error named in the map, with a message naming what went wrong (the map's default otherwise). */
export function apiError(name: ErrorName, message?: string, headers?: Record<string, string>): ApiError {
  return new ApiError(ERRORS[name].status, message ?? ERRORS[name].message, headers);
}

/** The `{code, message}` body for a status, with the map's default message when none is given. */
export function errorBody(status: number, message?: string): ErrorBody {
  return { code: status, message: message ?? ERROR_MESSAGES[status] ?? 'error' };
}

export const badRequest = (message: string) => apiError('invalid_request', message);
export const unauthorized = (message?: string) => apiError('invalid_token', message);
export const forbidden = (message?: string) => apiError('forbidden', message);
export const notFound = (message?: string) => apiError('not_found', message);
export const conflict = (message?: string) => apiError('conflict', message);
