/** Error codes equal the HTTP status; the default messages are the spec's. */
export const ERROR_MESSAGES: Record<number, string> = {
  400: 'invalid request',
  401: 'invalid token',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  408: 'request timeout',
  409: 'conflict',
  413: 'payload too large',
  415: 'unsupported media type',
  429: 'too many requests',
  500: 'internal server error',
  503: 'service unavailable',
};

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

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'invalid token') => new ApiError(401, message);
export const forbidden = (message = 'forbidden') => new ApiError(403, message);
export const notFound = (message = 'not found') => new ApiError(404, message);
export const conflict = (message = 'conflict') => new ApiError(409, message);
