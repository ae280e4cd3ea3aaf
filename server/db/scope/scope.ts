/**
 * Whose data a request may touch. It is fixed once, when the caller is authenticated, and travels on the
 * principal (`auth.scope`); domain functions take their tenant filters from it (scopeWhere, inScope,
 * resolvePartnerFilter) instead of reading partner and provider ids off the principal themselves.
 */
export type Scope = AllTenantsScope | PartnerScope | ProviderScope;

/** A service admin (ADMIN_API_KEY, a service-wide API key, the local CLI, a service_admin console user). */
export interface AllTenantsScope {
  readonly kind: 'all';
}

/** A partner admin: everything of one partner. */
export interface PartnerScope {
  readonly kind: 'partner';
  readonly partnerId: string;
}

/**
 * A provider acting through one partner (a service token). Tables that carry a provider column are
 * narrowed to the provider; partner-wide tables (CKG data, webhooks) to the partner.
 */
export interface ProviderScope {
  readonly kind: 'provider';
  readonly partnerId: string;
  readonly providerId: string;
}

/** Anything that carries a scope: every principal does. */
export interface Scoped<S extends Scope = Scope> {
  readonly scope: S;
}
