import type { AllTenantsScope, PartnerScope } from './scope';

const ALL_TENANTS: AllTenantsScope = Object.freeze({ kind: 'all' });

/**
 * The scope of an admin principal. A partner admin without a partner (which authentication never builds)
 * is scoped to the empty partner id, which owns nothing: fail closed rather than see every tenant.
 */
export function adminScope(role: 'service_admin' | 'partner_admin', partnerId: string | null): AllTenantsScope | PartnerScope {
  return role === 'service_admin' ? ALL_TENANTS : Object.freeze({ kind: 'partner', partnerId: partnerId ?? '' });
}
