'use client';
/**
 * The clinician app calls the partner API (/api/v1/*) with a service token minted for the signed-in
 * clinician by GET /api/app/token. The token lives in the react-query cache, refreshed before it expires;
 * a 401 from the API (token expired early, keys rotated) refreshes it once and retries.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiClientError } from '@/lib/api/fetch';
import { call, type CallInput } from '@/lib/api/client';
import type { ResponseOf, RouteContract } from '@/lib/api/contract';
import { ClinicianTokenResponse } from '@/lib/contracts/clinician';
import { getClinicianToken } from '@/lib/contracts/routes/app';

export const TOKEN_KEY = ['app', 'service-token'] as const;
/** Refresh this long before the token's expiry so no call races it. */
const REFRESH_MARGIN_MS = 5 * 60_000;

export function tokenQuery() {
  return {
    queryKey: TOKEN_KEY,
    queryFn: async () => {
      try {
        return await call(getClinicianToken, {}, { schema: ClinicianTokenResponse });
      } catch (err) {
        // The console session itself expired: back to the sign-in page, then here again.
        if (err instanceof ApiClientError && err.code === 401 && typeof window !== 'undefined') {
          window.location.assign(`/login?callbackUrl=${encodeURIComponent(window.location.pathname)}`);
        }
        throw err;
      }
    },
    staleTime: (q: { state: { data?: ClinicianTokenResponse } }) =>
      q.state.data ? Math.max(0, Date.parse(q.state.data.expires_at) - Date.now() - REFRESH_MARGIN_MS) : 0,
    retry: (n: number, err: unknown) => !(err instanceof ApiClientError && (err.code === 401 || err.code === 403)) && n < 2,
  };
}

export async function getServiceToken(qc: QueryClient, fresh = false): Promise<ClinicianTokenResponse> {
  if (fresh) await qc.invalidateQueries({ queryKey: TOKEN_KEY });
  return qc.fetchQuery(tokenQuery());
}

export function authHeaders(t: ClinicianTokenResponse): Record<string, string> {
  return t.provider_id ? { sdp_service_token: t.service_token, sdp_provider_id: t.provider_id } : { sdp_service_token: t.service_token };
}

export interface ClinicianCallOptions<T> {
  /** Validate the answer with the contract's success schema (the default), or with this schema instead. */
  schema?: z.ZodType<T>;
  validate?: boolean;
  signal?: AbortSignal;
}

/**
 * A typed call (lib/api/client.ts) with the clinician's service token; the answer is validated against
 * the contract unless `validate: false`. A 401 refreshes the token once and retries.
 */
export function callAsClinician<C extends RouteContract, T>(qc: QueryClient, contract: C, input: CallInput<C>, opts: ClinicianCallOptions<T> & { schema: z.ZodType<T> }): Promise<T>;
export function callAsClinician<C extends RouteContract>(qc: QueryClient, contract: C, input: CallInput<C>, opts?: ClinicianCallOptions<unknown>): Promise<ResponseOf<C>>;
export async function callAsClinician(qc: QueryClient, contract: RouteContract, input: unknown, opts: ClinicianCallOptions<unknown> = {}): Promise<unknown> {
  const send = (t: ClinicianTokenResponse) =>
    call(contract, input as CallInput<RouteContract>, { headers: authHeaders(t), signal: opts.signal, schema: opts.schema, validate: opts.validate ?? true } as { schema: z.ZodType<unknown> });
  try {
    return await send(await getServiceToken(qc));
  } catch (err) {
    if (!(err instanceof ApiClientError) || err.code !== 401) throw err;
    return send(await getServiceToken(qc, true));
  }
}
