import { notFound } from '@/lib/errors';
import type { Scope } from './scope';

/**
 * The partner a request that names one (a partner_id query, body member or path parameter) acts on. A
 * service admin gets the partner it named (undefined: every partner); anyone scoped to a partner gets its
 * own, and naming another partner answers the same 404 as a partner that does not exist.
 */
export function resolvePartnerFilter(scope: Scope, requested?: string | null): string | undefined {
  if (scope.kind === 'all') return requested ?? undefined;
  if (requested && requested !== scope.partnerId) throw notFound(`partner ${requested} not found`);
  return scope.partnerId;
}
