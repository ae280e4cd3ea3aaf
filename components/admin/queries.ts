'use client';
import { useQuery } from '@tanstack/react-query';
import type { QueryValue } from '@/lib/api/fetch';
import type { Partner } from '@/lib/contracts/partners';
import { api } from '@/lib/api/client';
import { listPartners } from '@/lib/contracts/routes/admin-partners';

export const adminKeys = {
  partners: ['admin', 'partners'] as const,
  partner: (id: string) => ['admin', 'partners', id] as const,
  providers: (partnerId: string, q: Record<string, QueryValue>) => ['admin', 'providers', partnerId, q] as const,
  sessions: (q: Record<string, QueryValue>) => ['admin', 'sessions', q] as const,
  session: (id: string) => ['admin', 'session', id] as const,
  deliveries: (q: Record<string, QueryValue>) => ['admin', 'deliveries', q] as const,
  delivery: (id: string) => ['admin', 'delivery', id] as const,
  apiKeys: ['admin', 'api-keys'] as const,
  users: ['admin', 'users'] as const,
  audit: (q: Record<string, QueryValue>) => ['admin', 'audit', q] as const,
};

export function usePartners() {
  return useQuery({
    queryKey: adminKeys.partners,
    queryFn: ({ signal }) => api.call(listPartners, {}, { signal }).then((r) => r.partners),
  });
}

/** Options for a partner filter: id and name. */
export function partnerOptions(partners: Partner[] | undefined) {
  return (partners ?? []).map((p) => ({ value: p.partner_id, label: `${p.name} (${p.partner_id})` }));
}
