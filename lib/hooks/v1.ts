'use client';
/**
 * The clinician app calls the partner API (/api/v1/*) with a service token minted for the signed-in
 * clinician by GET /api/app/token. The token lives in the react-query cache, refreshed before it expires;
 * a 401 from the API (token expired early, keys rotated) refreshes it once and retries.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ApiClientError, apiFetch, type ApiFetchOptions } from '@/lib/api-client';
import { ClinicianTokenResponse } from '@/lib/contracts/clinician';

export const TOKEN_KEY = ['app', 'service-token'] as const;
/** Refresh this long before the token's expiry so no call races it. */
const REFRESH_MARGIN_MS = 5 * 60_000;

export function tokenQuery() {
  return {
    queryKey: TOKEN_KEY,
    queryFn: async () => {
      try {
        return await apiFetch('/api/app/token', { schema: ClinicianTokenResponse });
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

/** apiFetch with the clinician's service token. */
export async function v1<T>(qc: QueryClient, path: string, opts: ApiFetchOptions<T> = {}): Promise<T> {
  const t = await getServiceToken(qc);
  try {
    return await apiFetch<T>(path, { ...opts, headers: { ...opts.headers, ...authHeaders(t) } });
  } catch (err) {
    if (!(err instanceof ApiClientError) || err.code !== 401) throw err;
    const again = await getServiceToken(qc, true);
    return apiFetch<T>(path, { ...opts, headers: { ...opts.headers, ...authHeaders(again) } });
  }
}
