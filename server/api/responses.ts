import type { ResponseSpec } from '../http/route';
import { ErrorBody } from '@/lib/contracts/common';

const err = (description: string): ResponseSpec => ({ description, schema: ErrorBody });

/** Error responses by status, so each route lists the ones it can answer. */
export const E = {
  400: err('invalid request: a body, query or path field failed validation'),
  401: err('invalid token'),
  403: err('forbidden'),
  404: err('not found'),
  409: err('conflict'),
  413: err('payload too large'),
  429: err('too many requests'),
} as const;

export function errors(...codes: Array<keyof typeof E>): Record<number, ResponseSpec> {
  return Object.fromEntries(codes.map((c) => [c, E[c]]));
}
